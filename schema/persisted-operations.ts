// Trusted documents: the facade's operations, contract/operations/*.graphql, are known to
// the core by the SHA-256 of their text, so the facade sends only the hash (the Apollo
// `extensions.persistedQuery` shape, served by @graphql-yoga/plugin-persisted-operations). The manifest
// is made from the files when the process starts, in the core and in the facade alike: it cannot
// drift from the documents. Arbitrary documents are accepted only from authenticated callers (the
// entry gate has admitted the request before this plugin runs), within the document limits.
import fs from "node:fs";
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { gateStateOf } from "./entry-gate.ts";
import { operationHash, PERSISTED_QUERY_NOT_FOUND } from "../contract/facade-request.ts";
import { OPERATIONS_DIR } from "../contract/trusted-operations.ts";

export interface PersistedOperation {
  /** The file's name without `.graphql`. */
  name: string;
  document: string;
}

/** hash -> document of every operation file, read once. */
export function loadPersistedOperations(dir: URL = OPERATIONS_DIR): Map<string, PersistedOperation> {
  const manifest = new Map<string, PersistedOperation>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".graphql")).sort()) {
    const document = fs.readFileSync(new URL(file, dir), "utf8");
    manifest.set(operationHash(document), { name: file.slice(0, -".graphql".length), document });
  }
  return manifest;
}

function requestError(message: string, code: string, status: number) {
  return () => new GraphQLError(message, { extensions: { code, status, body: { error: message, code: "invalid_parameter" }, http: { status, spec: false } } });
}

export function persistedOperations(manifest: Map<string, PersistedOperation> = loadPersistedOperations()): Plugin {
  return usePersistedOperations({
    getPersistedOperation: (hash) => manifest.get(hash)?.document ?? null,
    // The gate threw for anyone unauthenticated already; this keeps the rule if the order ever changes.
    allowArbitraryOperations: (request) => gateStateOf(request) !== undefined,
    customErrors: {
      notFound: requestError("unknown persisted operation", PERSISTED_QUERY_NOT_FOUND, 400),
      keyNotFound: requestError("a query or a persisted operation (extensions.persistedQuery) is required", "PERSISTED_QUERY_ID_REQUIRED", 400),
      persistedQueryOnly: requestError("only persisted operations are accepted without a credential", "PERSISTED_QUERY_ONLY", 401),
    },
  }) as Plugin;
}
