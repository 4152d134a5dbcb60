// Test clients for the public surfaces: /v1 over HTTP (every response checked against the OpenAPI
// document) and GraphQL as operator or tenant.
import { createOpenApiValidator } from "./openapi-validator.ts";
import { ADMIN_TOKEN, testService, v1BaseUrl } from "./service.ts";

const validator = createOpenApiValidator();

export interface HttpResult {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** json (default), form, multipart or a raw content type with a string body. */
  as?: "json" | "form" | "multipart" | string;
  headers?: Record<string, string>;
  /** Skip OpenAPI validation (deliberately undocumented requests). */
  unchecked?: boolean;
}

export async function call(method: string, path: string, opts: CallOptions = {}): Promise<HttpResult> {
  const baseUrl = path.startsWith("/v1/") ? await v1BaseUrl() : (await testService()).baseUrl;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    const as = opts.as ?? "json";
    if (as === "json") {
      headers["content-type"] = "application/json";
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    } else if (as === "form") {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(opts.body as Record<string, string>).toString();
    } else if (as === "multipart") {
      const form = new FormData();
      for (const [k, v] of Object.entries(opts.body as Record<string, string>)) form.append(k, v);
      body = form;
    } else {
      headers["content-type"] = as;
      body = String(opts.body);
    }
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* non-JSON bodies stay text */
  }
  if (!opts.unchecked && path.startsWith("/v1/") && !path.startsWith("/v1/openapi.json")) {
    const check = validator.validateResponse(method, path, res.status, parsed);
    if (!check.ok) throw new Error(`${method} ${path} -> ${res.status} breaks the OpenAPI document: ${check.errors.slice(0, 5).join("; ")}\n${text}`);
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export const get = (path: string, key: string | null, opts: CallOptions = {}) => call("GET", path, { ...opts, key });
export const post = (path: string, key: string | null, body?: unknown, opts: CallOptions = {}) => call("POST", path, { ...opts, key, body });

export interface GqlResult<T = any> {
  status: number;
  data: T;
  errors?: { message: string; extensions?: Record<string, any> }[];
}

export async function gql<T = any>(query: string, variables: Record<string, unknown> = {}, token: string | null = ADMIN_TOKEN): Promise<GqlResult<T>> {
  const { baseUrl } = await testService();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as { data: T; errors?: GqlResult["errors"] };
  return { status: res.status, data: json.data, errors: json.errors };
}

/** GraphQL call that must succeed. */
export async function op<T = any>(query: string, variables: Record<string, unknown> = {}, token: string | null = ADMIN_TOKEN): Promise<T> {
  const r = await gql<T>(query, variables, token);
  if (r.errors?.length) throw new Error(`GraphQL failed: ${JSON.stringify(r.errors)}`);
  return r.data;
}
