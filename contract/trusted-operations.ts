// The trusted operations: the GraphQL documents the /v1 facade sends, one .graphql file per route in
// ./operations/. The core knows them by the hash of their text (schema/persisted-operations.ts); the
// facade loads them by name (rest-facade/operations.ts). Both read the same files, so they cannot drift.
import fs from "node:fs";

export const OPERATIONS_DIR = new URL("./operations/", import.meta.url);

/** One operation document by its file name (without `.graphql`), read from disk on each call. */
export const loadOperation = (name: string): string => fs.readFileSync(new URL(`${name}.graphql`, OPERATIONS_DIR), "utf8");
