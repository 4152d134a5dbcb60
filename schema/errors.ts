// GraphQL side of the error catalogue: AppError becomes a GraphQL error whose extensions carry the
// catalogue key, HTTP status and body, so the REST facade answers exactly what core decided.
// Whatever is masked (a client sees "internal error", or a 503 standing for an infrastructure fault)
// is logged once, with its cause: the client's answer says nothing, the log says everything.
import { GraphQLError } from "graphql";
import type { Logger } from "pino";
import { AppError, infrastructureError, isAppError } from "../core/shared/errors.ts";

/** Causes already logged (by the execution hook, with the request id) are not logged again by maskError. */
const logged = new WeakSet<object>();

function logOnce(logger: Logger | undefined, level: "error" | "warn", cause: unknown, error: unknown, msg: string): void {
  if (!logger || !cause || typeof cause !== "object" || logged.has(cause)) return;
  logged.add(cause);
  const path = error instanceof GraphQLError ? error.path?.join(".") : undefined;
  logger[level]({ err: cause, ...(path ? { path } : {}) }, msg);
}

export function toGraphQLError(error: unknown, logger?: Logger): GraphQLError {
  // Already translated (the context's 401, a limit's 400 or 429): keep it, with its HTTP status.
  if (error instanceof GraphQLError && error.extensions?.body) return error;
  const raw = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  const infra = infrastructureError(raw);
  const original = infra ?? raw;
  if (isAppError(original)) {
    if (infra) logOnce(logger, "warn", raw, error, `GraphQL error answered as ${infra.key}`);
    return new GraphQLError(original.message, {
      ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
      extensions: { code: original.key, status: original.status, body: original.body },
    });
  }
  if (error instanceof GraphQLError && (!error.originalError || (!error.path && error.originalError instanceof GraphQLError))) {
    // Parse and validation errors, and variables of the wrong type: the request itself is wrong.
    const http = error.extensions?.http as { status?: number; spec?: boolean } | undefined;
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      path: error.path,
      extensions: {
        code: "invalid_argument",
        status: 400,
        body: { error: error.message, code: "invalid_argument" },
        // Yoga's own request refusals (a batch, a bad Content-Length) keep their 4xx; a syntax error
        // keeps the GraphQL-over-HTTP rule (200 for an `application/json` client).
        ...(http ? { http } : {}),
      },
    });
  }
  logOnce(logger, "error", raw, error, "GraphQL error masked as internal");
  const internal = new AppError("internal");
  return new GraphQLError(internal.message, {
    ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
    extensions: { code: internal.key, status: internal.status, body: internal.body },
  });
}
