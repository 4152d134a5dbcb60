// The /v1 operations as the committed OpenAPI document describes them: method, path template,
// path and query parameters, request body schema and content types. The fuzzer is generated from
// this list, so a route added to the document is fuzzed without touching the fuzzer.
import fs from "node:fs";

type Json = Record<string, any>;

export interface ParamSpec {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Json;
}

export interface BodyProperty {
  name: string;
  schema: Json;
  required: boolean;
}

export interface OperationSpec {
  operationId: string;
  method: "GET" | "POST";
  template: string;
  pathParams: ParamSpec[];
  queryParams: ParamSpec[];
  /** Documented request-body content types; empty for routes without a body. */
  contentTypes: string[];
  bodyRequired: boolean;
  bodyProperties: BodyProperty[];
  /** Responses the document lists (status codes). */
  statuses: string[];
}

export function loadDocument(): Json {
  return JSON.parse(fs.readFileSync(new URL("../../rest-facade/openapi/openapi.json", import.meta.url), "utf8")) as Json;
}

function resolve(doc: Json, node: Json | undefined): Json | undefined {
  let n = node;
  for (let i = 0; n && typeof n.$ref === "string" && i < 10; i++) {
    n = n.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((acc: any, k: string) => acc?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  }
  return n;
}

/** Resolves `$ref`s in a schema (one level of properties and items is enough for request bodies). */
function deref(doc: Json, schema: Json | undefined): Json {
  const s = { ...(resolve(doc, schema) ?? {}) };
  if (s.items) s.items = resolve(doc, s.items);
  return s;
}

export function deriveOperations(doc: Json = loadDocument()): OperationSpec[] {
  const out: OperationSpec[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    if (!template.startsWith("/v1/")) continue;
    for (const method of ["get", "post"] as const) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const params: ParamSpec[] = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .map((p: Json) => resolve(doc, p)!)
        .map((p: Json) => ({ name: p.name, in: p.in, required: Boolean(p.required), schema: deref(doc, p.schema) }));
      const content = (resolve(doc, op.requestBody)?.content ?? {}) as Json;
      const contentTypes = Object.keys(content);
      const bodySchema = contentTypes.length ? deref(doc, content[contentTypes[0]!].schema) : {};
      const required = new Set<string>(bodySchema.required ?? []);
      const statuses = Object.keys(op.responses ?? {});
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase() as "GET" | "POST",
        template,
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        contentTypes,
        bodyRequired: Boolean(resolve(doc, op.requestBody)?.required),
        bodyProperties: Object.entries((bodySchema.properties ?? {}) as Json).map(([name, schema]) => ({
          name,
          schema: deref(doc, schema),
          required: required.has(name),
        })),
        statuses,
      });
    }
  }
  return out;
}
