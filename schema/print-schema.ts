// `npm run schema:print`: writes schema/schema.graphql, the committed contract of the GraphQL core.
import fs from "node:fs";
import { printSchema } from "graphql";
import { schema } from "./schema.ts";

export const SCHEMA_FILE = new URL("./schema.graphql", import.meta.url);

export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}

if (process.argv[1]?.endsWith("print-schema.ts")) {
  fs.writeFileSync(SCHEMA_FILE, printedSchema());
  console.log("wrote schema/schema.graphql");
}
