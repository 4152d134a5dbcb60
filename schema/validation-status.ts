// GraphQL's own request errors (an unknown field, a wrong argument or variable type, a fragment on a
// type that cannot occur) are the caller's mistake: 400, whatever the Accept header, never 200 or 500.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";

const badRequest = (err: Error) => {
  const e = err instanceof GraphQLError ? err : new GraphQLError(err.message);
  return new GraphQLError(e.message, {
    nodes: e.nodes,
    source: e.source,
    positions: e.positions,
    path: e.path,
    originalError: e.originalError,
    extensions: { ...e.extensions, code: e.extensions.code ?? "GRAPHQL_VALIDATION_FAILED", http: { status: 400, spec: false } },
  });
};

export function validationStatus(): Plugin {
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length) setResult(result.map(badRequest));
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          // No data key at all: the operation never ran (its variables did not coerce to their types).
          if (!("data" in result) && "errors" in result && result.errors?.length) {
            setResult({ ...result, errors: result.errors.map(badRequest) });
          }
        },
      };
    },
  };
}
