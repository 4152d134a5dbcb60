// Yoga over the Pothos schema: the one entry of every caller, the /v1 facade's included. The entry
// gate (entry-gate.ts) admits the request (key, scope, account mode, rate budget, Idempotency-Key);
// the context carries the caller it found and the tenant's clock.
import { getOperationAST } from "graphql";
import { createYoga, type Plugin, type YogaServerInstance } from "graphql-yoga";
import { tenantClock } from "../core/shared/clock.ts";
import { AppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import { ROLE_PERMISSIONS } from "../core/team/team-rules.ts";
import type { Actor, Context } from "./context.ts";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { entryGate, gateError, gateStateOf, isInProcess } from "./entry-gate.ts";
import { toGraphQLError } from "./errors.ts";
import { graphiqlAssets, renderGraphiQLPage } from "./graphiql.tsx";
import { documentLimits } from "./graphql-limits.ts";
import { graphqlRateLimits, type StoreFor } from "./graphql-rate-limit.ts";
import { persistedOperations } from "./persisted-operations.ts";
import { schema } from "./schema.ts";

export type Yoga = YogaServerInstance<Record<string, never>, Context>;

/** The HTTP body cap of /graphql, as /v1's (http/body.ts). */
export const GRAPHQL_BODY_LIMIT = 100 * 1024;

export interface GraphQLOptions {
  /** Rate-limit stores (Redis with REDIS_URL); memory when absent. */
  storeFor?: StoreFor;
  /** The facade's shared secret (default FACADE_SECRET): HTTP requests bearing it are the facade's. */
  facadeSecret?: string;
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
    return { origin: [origin], credentials: false, methods: ["GET", "POST"], allowedHeaders: ["authorization", "content-type", "x-request-id", "idempotency-key"], maxAge: 600 };
  };
}

/** With an allow-list, every answer depends on the Origin header: caches must know (Yoga adds no Vary for one origin). */
const varyByOrigin: Plugin = {
  onResponse({ response }) {
    const vary = response.headers.get("vary");
    if (!vary?.split(/,\s*/).some((v) => v.toLowerCase() === "origin")) response.headers.set("vary", vary ? `${vary}, Origin` : "Origin");
  },
};

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

/**
 * A mutation answers only once this instance has read the entitlements notifications its writes queued
 * (entitlements-cache.ts fence): a caller who changes a subscription and then reads entitlements here
 * sees the change.
 */
function entitlementsFence(runtime: Runtime): Plugin<Context> {
  return {
    onExecute({ args }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
      return { onExecuteDone: () => runtime.entitlements.fence() };
    },
  };
}

export function createGraphQL(runtime: Runtime, opts: GraphQLOptions = {}): Yoga {
  const limits = graphqlRateLimits(opts.storeFor);
  const corsOrigins = opts.corsOrigins ?? corsOriginsFromEnv();
  const yoga = createYoga<Record<string, never>, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: { title: "Billing GraphQL", defaultQuery: "{ viewer { kind tenantId scope } }" },
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    // Over HTTP, app.ts refuses a larger body before reading it; this is the second line. The facade's
    // in-process calls have no body (in-process-entry.ts).
    maxRequestBodySize: GRAPHQL_BODY_LIMIT,
    // One operation per request: an array body is a 400, not ten operations for one rate-limit hit.
    batching: false,
    // No file uploads in this schema.
    multipart: false,
    cors: corsPolicy(corsOrigins),
    logging: false,
    maskedErrors: { maskError: (error) => toGraphQLError(error, runtime.logger) },
    plugins: [
      // First: nobody unauthenticated gets a document parsed, and every later hook knows the caller.
      entryGate({ runtime, limits, facadeSecret: opts.facadeSecret ?? process.env.FACADE_SECRET }),
      persistedOperations(),
      ...documentLimits(),
      graphiqlAssets(),
      ...(corsOrigins.length ? [varyByOrigin] : []),
      logMaskedErrors(runtime),
      entitlementsFence(runtime),
      // The facade's persisted operations run compiled (graphql-jit): a full page resolves thousands of
      // fields, and graphql-js's generic executor was a visible share of its CPU. Other callers'
      // documents run on graphql-js.
      useGraphQlJit({}, { enableIf: (args) => isInProcess((args.contextValue as { request?: Request }).request) }),
    ],
    context: async ({ request }): Promise<Context> => {
      const state = gateStateOf(request);
      if (!state) throw gateError(new AppError("unauthorized")); // the gate admits every request first
      const { auth, requestId, address } = state;
      if (auth.kind === "operator") return { runtime, db: runtime.db, actor: { kind: "operator" }, clock: runtime.wallClock, requestId, address };
      if (auth.kind === "panel") return { runtime, db: runtime.db, actor: { kind: "panel", client: state.panel ?? { address: "", userAgent: "" } }, clock: runtime.wallClock, requestId, address };
      if (auth.kind === "user") {
        const { principal } = auth;
        const actor: Actor = {
          kind: "tenant",
          tenantId: principal.tenantId,
          keyId: "",
          user: {
            id: principal.userId,
            sessionId: principal.sessionId,
            email: principal.email,
            role: principal.role,
            twoFactorOn: principal.twoFactorOn,
            owesTwoFactor: principal.tenant.twoFactorRequired && !principal.twoFactorOn,
            client: state.panel ?? { address: "", userAgent: "" },
          },
          scope: ROLE_PERMISSIONS[principal.role].write ? "WRITE" : "READ",
          readOnly: principal.tenant.readOnly,
          mode: principal.tenant.mode,
          clockAt: principal.tenant.clockAt,
        };
        return { runtime, db: runtime.db, actor, clock: tenantClock(principal.tenant, runtime.wallClock), requestId, address };
      }
      const actor: Actor = {
        kind: "tenant",
        tenantId: auth.tenantId,
        keyId: auth.keyId,
        scope: auth.scope,
        readOnly: auth.tenant.readOnly,
        mode: auth.tenant.mode,
        clockAt: auth.tenant.clockAt,
      };
      return { runtime, db: runtime.db, actor, clock: tenantClock(auth.tenant, runtime.wallClock), requestId, address };
    },
  });
  return yoga;
}
