// Yoga over the Pothos schema. The context resolves the caller once per request: operator token or
// tenant key (cached, exact), and the tenant's clock.
import { GraphQLError } from "graphql";
import { createYoga, type Plugin, type YogaServerInstance } from "graphql-yoga";
import { authenticate } from "../core/auth/authenticate.ts";
import { tenantClock } from "../core/shared/clock.ts";
import { AppError, isAppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import type { Actor, Context } from "./context.ts";
import { toGraphQLError } from "./errors.ts";
import { schema } from "./schema.ts";

/** PostgreSQL text cannot hold U+0000: a request carrying one is malformed input, not a server error. */
const refuseNulBytes: Plugin = {
  onParams({ params }) {
    if (params.query?.includes("\\u0000") || JSON.stringify(params.variables ?? {}).includes("\\u0000")) {
      const e = new AppError("invalid_parameter", { error: "parameters must not contain NUL characters" });
      throw new GraphQLError(e.message, { extensions: { code: e.key, status: e.status, body: e.body, http: { status: e.status } } });
    }
  },
};

export type Yoga = YogaServerInstance<Record<string, never>, Context>;

/** `inProcess`: the instance behind the /v1 facade's in-process fetch, never reachable over HTTP. */
export function createGraphQL(runtime: Runtime, opts: { inProcess?: boolean } = {}): Yoga {
  return createYoga<Record<string, never>, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: { title: "Billing GraphQL", defaultQuery: "{ viewer { kind tenantId scope } }" },
    landingPage: false,
    // Yoga's body cap pipes every body through a stream transform: ~20 % of the /v1 hot path's CPU.
    // The in-process facade's bodies are documents it wrote itself, already capped at /v1's limit.
    ...(opts.inProcess ? { maxRequestBodySize: false as const } : {}),
    logging: false,
    maskedErrors: { maskError: (error) => toGraphQLError(error) },
    plugins: [refuseNulBytes],
    context: async ({ request }): Promise<Context> => {
      const requestId = request.headers.get("x-request-id") ?? "";
      let auth;
      try {
        auth = await authenticate(runtime, request.headers.get("authorization"));
      } catch (e) {
        if (!isAppError(e)) throw e;
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
      return { runtime, db: runtime.db, actor, clock: tenantClock(auth.tenant, runtime.wallClock), requestId };
    },
  });
}
