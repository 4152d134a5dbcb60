// The /v1 route templates of the OpenAPI document, matched against request paths. One table serves
// the write-scope and read-only checks (x-required-scope, x-allowed-when-read-only) and the metrics'
// route label, so neither depends on how far a request got through Express's routers.
import { openApiDocument } from "./docs.ts";

type Json = Record<string, unknown>;

export interface DocumentedOperation {
  operationId: string;
  /** `read` or `write` (billing-api.md "Authentication" item 6). */
  requiredScope: "read" | "write";
  /** Write routes that stay open in read-only account mode (item 7). */
  allowedWhenReadOnly: boolean;
}

export interface DocumentedRoute {
  /** Express style, e.g. `/v1/subscriptions/:subscription_id`: the metrics label. */
  label: string;
  regex: RegExp;
  operations: Map<string, DocumentedOperation>;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(doc: Json): DocumentedRoute[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  return Object.entries(paths)
    .map(([template, item]) => {
      const operations = new Map<string, DocumentedOperation>();
      for (const [method, op] of Object.entries(item)) {
        operations.set(method.toUpperCase(), {
          operationId: String(op.operationId),
          requiredScope: op["x-required-scope"] === "write" ? "write" : "read",
          allowedWhenReadOnly: op["x-allowed-when-read-only"] === true,
        });
      }
      return {
        label: template.replace(/\{([^}]+)\}/g, ":$1"),
        // Express routes are case-insensitive and take an optional trailing slash; so does this.
        regex: new RegExp("^" + escapeRegex(template).replace(/\\\{[^}]+\\\}/g, "[^/]+") + "/?$", "i"),
        operations,
        params: (template.match(/\{/g) ?? []).length,
      };
    })
    .sort((a, b) => a.params - b.params) // literal segments win over templated ones
    .map(({ params: _p, ...route }) => route);
}

const routes = compile(openApiDocument);

/** The documented route a path (no query string) belongs to, whatever the method. */
export function documentedRoute(path: string): DocumentedRoute | undefined {
  return routes.find((r) => r.regex.test(path));
}

export function documentedOperation(method: string, path: string): DocumentedOperation | undefined {
  // HEAD is answered by the GET route.
  const m = method === "HEAD" ? "GET" : method;
  return documentedRoute(path)?.operations.get(m);
}
