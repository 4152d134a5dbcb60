// Yoga over the Pothos schema. The context resolves the caller once per request: operator token or
// tenant key (cached, exact), and the tenant's clock.
import { GraphQLError } from "graphql";
import { createYoga, type Plugin, type YogaServerInstance } from "graphql-yoga";
import { authenticate } from "../core/auth/authenticate.ts";
import { tenantClock } from "../core/shared/clock.ts";
import { isAppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import type { Actor, Context } from "./context.ts";
import { toGraphQLError } from "./errors.ts";
import { graphiqlAssets, renderGraphiQLPage } from "./graphiql.ts";
import { documentLimits } from "./graphql-limits.ts";
import { graphqlRateLimits, rootFieldCount, type GraphQLRateLimits, type KeyBudget, type StoreFor } from "./graphql-rate-limit.ts";
import { schema } from "./schema.ts";

export type Yoga = YogaServerInstance<Record<string, never>, Context>;

/** The HTTP body cap of /graphql, as /v1's (rest-facade/middleware/body.ts). */
export const GRAPHQL_BODY_LIMIT = 100 * 1024;

export interface GraphQLOptions {
  /** The instance behind the /v1 facade's in-process fetch, never reachable over HTTP. */
  inProcess?: boolean;
  /** Rate-limit stores (Redis with REDIS_URL); memory when absent. */
  storeFor?: StoreFor;
  /** Origins allowed to call /graphql from a browser; default GRAPHQL_CORS_ORIGINS (comma separated), else none. */
  corsOrigins?: string[];
}

/** GRAPHQL_CORS_ORIGINS="https://a.example,https://b.example"; unset or empty: no CORS headers at all. */
export function corsOriginsFromEnv(value = process.env.GRAPHQL_CORS_ORIGINS): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim().replace(/\/+$/, ""))
    .filter(Boolean);
}

/**
 * An explicit CORS policy instead of Yoga's default (any origin reflected, with credentials): no
 * headers for an origin off the list, and never credentials (the API takes a bearer token, not cookies).
 */
function corsPolicy(origins: string[]) {
  if (!origins.length) return false as const;
  const allowed = new Set(origins);
  return (request: Request) => {
    const origin = request.headers.get("origin");
    if (!origin || !allowed.has(origin)) return false as const;
    return { origin: [origin], credentials: false, methods: ["GET", "POST"], allowedHeaders: ["authorization", "content-type", "x-request-id"], maxAge: 600 };
  };
}

/** With an allow-list, every answer depends on the Origin header: caches must know (Yoga adds no Vary for one origin). */
const varyByOrigin: Plugin = {
  onResponse({ response }) {
    const vary = response.headers.get("vary");
    if (!vary?.split(/,\s*/).some((v) => v.toLowerCase() === "origin")) response.headers.set("vary", vary ? `${vary}, Origin` : "Origin");
  },
};

/** The caller's budget, found by the context, read by the rate-limit hook. */
const budgets = new WeakMap<object, KeyBudget>();

/**
 * Per-key budgets before execution: the document is parsed and valid and the caller known, nothing
 * has run. A mutation costs one write per root field; anything else is one read.
 */
function perKeyRateLimits(limits: GraphQLRateLimits): Plugin<Context> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const budget = budgets.get(args.contextValue.actor);
      if (!budget) return; // the operator: no key, no per-key budget (see graphql-rate-limit.ts)
      const root = rootFieldCount(args.document, args.operationName);
      const refusal = root?.operation === "mutation" ? await limits.charge(budget, "write", root.fields) : await limits.charge(budget, "read", 1);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
  };
}

/**
 * Every error that a client sees as "internal error" (or as a 503 standing for an infrastructure
 * fault) is logged here with its cause and the request id, before masking hides it. Errors raised
 * outside execution (the context, a plugin) are logged by maskError, without the request id.
 */
function logMaskedErrors(runtime: Runtime): Plugin<Context> {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (!("errors" in result) || !result.errors?.length) return;
          const logger = runtime.logger.child({ requestId: args.contextValue.requestId, operationName: args.operationName ?? undefined });
          for (const error of result.errors) toGraphQLError(error, logger);
        },
      };
    },
  };
}

export function createGraphQL(runtime: Runtime, opts: GraphQLOptions = {}): Yoga {
  const limits = opts.inProcess ? null : graphqlRateLimits(opts.storeFor);
  const corsOrigins = opts.inProcess ? [] : (opts.corsOrigins ?? corsOriginsFromEnv());
  return createYoga<Record<string, never>, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: opts.inProcess ? false : { title: "Billing GraphQL", defaultQuery: "{ viewer { kind tenantId scope } }" },
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    // Yoga's body cap pipes every body through a stream transform: ~20 % of the /v1 hot path's CPU.
    // The in-process facade's bodies are documents it wrote itself, already capped at /v1's limit.
    // Over HTTP, app.ts refuses a larger body before reading it; this is the second line.
    maxRequestBodySize: opts.inProcess ? false : GRAPHQL_BODY_LIMIT,
    // One operation per request: an array body is a 400, not ten operations for one rate-limit hit.
    batching: false,
    // No file uploads in this schema.
    multipart: false,
    cors: corsPolicy(corsOrigins),
    logging: false,
    maskedErrors: { maskError: (error) => toGraphQLError(error, runtime.logger) },
    plugins: [
      ...documentLimits(),
      ...(limits ? [graphiqlAssets(), perKeyRateLimits(limits)] : []),
      ...(corsOrigins.length ? [varyByOrigin] : []),
      logMaskedErrors(runtime),
    ],
    context: async ({ request, ...server }): Promise<Context> => {
      const requestId = request.headers.get("x-request-id") ?? "";
      // Over HTTP (Express): the client address, for the failed-authentication cap.
      const address = limits ? ((server as { req?: { ip?: string; socket?: { remoteAddress?: string } } }).req?.ip ?? "") : "";
      const header = request.headers.get("authorization");
      if (limits && address) {
        const locked = await limits.authLocked(address);
        if (locked) throw locked;
      }
      let auth;
      try {
        auth = await authenticate(runtime, header);
      } catch (e) {
        if (!isAppError(e)) throw e;
        // Only a presented credential counts: a missing one guesses nothing.
        if (limits && address && header && e.status === 401) await limits.authFailed(address);
        throw new GraphQLError(e.message, { extensions: { code: e.key, status: e.status, body: e.body, http: { status: e.status } } });
      }
      if (auth.kind === "operator") return { runtime, db: runtime.db, actor: { kind: "operator" }, clock: runtime.wallClock, requestId };
      const actor: Actor = {
        kind: "tenant",
        tenantId: auth.tenantId,
        keyId: auth.keyId,
        scope: auth.scope,
        readOnly: auth.tenant.readOnly,
        mode: auth.tenant.mode,
        clockAt: auth.tenant.clockAt,
      };
      if (limits) budgets.set(actor, { keyId: auth.keyId, readPerSecond: auth.tenant.readRateLimit, writePerSecond: auth.tenant.writeRateLimit });
      return { runtime, db: runtime.db, actor, clock: tenantClock(auth.tenant, runtime.wallClock), requestId };
    },
  });
}
