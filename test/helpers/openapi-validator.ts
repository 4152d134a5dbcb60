// Response validator against the hand-written OpenAPI 3.1 document (contract tests).
// Matches a concrete request path to a templated path, picks the documented response for the
// status (or `default`) and validates the body with Ajv 2020; `#/components/...` refs resolve
// because the whole document is registered as one schema resource.
import fs from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// Both packages are CJS with `exports.default`; under NodeNext the default import is module.exports.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type Json = Record<string, unknown>;
export interface ValidationResult {
  ok: boolean;
  errors: string[];
  operationId?: string;
}
export interface OpenApiValidator {
  validateResponse(method: string, path: string, status: number, body: unknown): ValidationResult;
  /** A webhook request body against the document's `webhooks.<type>` entry. */
  validateWebhook(type: string, body: unknown): ValidationResult;
}

const DOC_ID = "openapi.json";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

function loadDefaultDocument(): Json {
  return JSON.parse(fs.readFileSync(new URL("../../rest-facade/openapi/openapi.json", import.meta.url), "utf8")) as Json;
}

const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Follows a local `#/...` JSON pointer inside the document. */
function resolveLocal(doc: Json, ref: string): unknown {
  let node: unknown = doc;
  for (const raw of ref.replace(/^#\//, "").split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = node && typeof node === "object" ? (node as Json)[key] : undefined;
  }
  return node;
}

interface Route {
  template: string;
  regex: RegExp;
  params: number;
}

export function createOpenApiValidator(doc: Json = loadDefaultDocument()): OpenApiValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });

  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const routes: Route[] = Object.keys(paths)
    .map((template) => ({
      template,
      regex: new RegExp("^" + escapeRegex(template).replace(/\\\{[^}]+\\\}/g, "([^/]+)") + "$"),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params); // literal segments win over templated ones
  const cache = new Map<string, ValidateFunction>();

  function validateResponse(method: string, path: string, status: number, body: unknown): ValidationResult {
    const m = method.toLowerCase();
    const bare = (path.split(/[?#]/)[0] ?? "").replace(/(.)\/+$/, "$1");
    const route = routes.find((r) => r.regex.test(bare) && METHODS.includes(m) && paths[r.template]?.[m]);
    if (!route) return { ok: false, errors: [`no documented operation matches ${method.toUpperCase()} ${bare}`] };
    const operation = paths[route.template]![m] as Json;
    const operationId = operation.operationId as string | undefined;
    const responses = (operation.responses ?? {}) as Json;
    const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : "default" in responses ? "default" : undefined;
    if (!key) {
      return { ok: false, operationId, errors: [`status ${status} is not documented for ${operationId ?? route.template}`] };
    }
    // Follow response-object refs (#/components/responses/...) to a concrete pointer.
    let pointer = `#/paths/${escapePointer(route.template)}/${m}/responses/${key}`;
    let response = responses[key] as Json | undefined;
    for (let i = 0; response && typeof response.$ref === "string" && i < 10; i++) {
      pointer = response.$ref;
      response = resolveLocal(doc, pointer) as Json | undefined;
    }
    if (!response) return { ok: false, operationId, errors: [`unresolvable response for status ${status}`] };
    const content = response.content as Record<string, Json> | undefined;
    if (!content) {
      const empty = body === undefined || body === null || body === "";
      return { ok: empty, operationId, errors: empty ? [] : [`status ${status} documents no body`] };
    }
    const mediaType = "application/json" in content ? "application/json" : Object.keys(content)[0]!;
    if (!content[mediaType]?.schema) return { ok: true, operationId, errors: [] };
    const schemaRef = `${DOC_ID}${pointer}/content/${escapePointer(mediaType)}/schema`;
    const validate = cache.get(schemaRef) ?? ajv.compile({ $ref: schemaRef });
    cache.set(schemaRef, validate);
    if (validate(body)) return { ok: true, operationId, errors: [] };
    const errors = (validate.errors ?? []).map((e) => {
      const extra = e.keyword === "additionalProperties" ? ` (${String(e.params.additionalProperty)})` : "";
      return `${e.instancePath || "/"} ${e.message ?? e.keyword}${extra}`;
    });
    return { ok: false, operationId, errors };
  }

  function validateWebhook(type: string, body: unknown): ValidationResult {
    const webhooks = (doc.webhooks ?? {}) as Record<string, Json>;
    if (!webhooks[type]) return { ok: false, errors: [`no documented webhook ${type}`] };
    const schemaRef = `${DOC_ID}#/webhooks/${escapePointer(type)}/post/requestBody/content/application~1json/schema`;
    const validate = cache.get(schemaRef) ?? ajv.compile({ $ref: schemaRef });
    cache.set(schemaRef, validate);
    if (validate(body)) return { ok: true, errors: [] };
    return { ok: false, errors: (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`) };
  }

  return { validateResponse, validateWebhook };
}
