// GraphQL side of the error catalogue: AppError becomes a GraphQL error whose extensions carry the
// catalogue key, HTTP status and body, so the REST facade answers exactly what core decided.
import { GraphQLError } from "graphql";
import { AppError, infrastructureError, isAppError } from "../core/shared/errors.ts";

export function toGraphQLError(error: unknown): GraphQLError {
  // Already translated (the context's 401): keep it, with its HTTP status.
  if (error instanceof GraphQLError && error.extensions?.body) return error;
  const raw = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  const original = infrastructureError(raw) ?? raw;
  if (isAppError(original)) {
    return new GraphQLError(original.message, {
      ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
      extensions: { code: original.key, status: original.status, body: original.body },
    });
  }
  if (error instanceof GraphQLError && !error.originalError) {
    // Parse and validation errors: the document itself is wrong.
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: "invalid_argument", status: 400, body: { error: error.message, code: "invalid_argument" } },
    });
  }
  const internal = new AppError("internal");
  return new GraphQLError(internal.message, {
    ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
    extensions: { code: internal.key, status: internal.status, body: internal.body },
  });
}
