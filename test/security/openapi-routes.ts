// The /v1 operations of the committed OpenAPI document, with their parameters and JSON body fields:
// security tests iterate over them so that a new route is covered without editing the tests.
import openapi from "../../rest-facade/openapi/openapi.json" with { type: "json" };

type Json = Record<string, any>;
const doc = openapi as Json;

function resolve(node: Json): Json {
  if (!node?.$ref) return node;
  return resolve(node.$ref.replace(/^#\//, "").split("/").reduce((n: Json, k: string) => n[k], doc));
}

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
}

/** Every operation of the document with its parameters and JSON body fields. */
export function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const params = [...((item as Json).parameters ?? []), ...((op as Json).parameters ?? [])].map(resolve);
      const schema = resolve((op as Json).requestBody?.content?.["application/json"]?.schema ?? {});
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
        bodyFields: Object.keys(schema.properties ?? {}),
      });
    }
  }
  return out;
}

