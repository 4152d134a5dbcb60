// The facade's only way into the core: one GraphQL request per /v1 request, in-process by default
// (schema/in-process-entry.ts: the same Yoga hooks, no HTTP request or response made and read), or
// over HTTP to a separately deployed core (GRAPHQL_URL). Documents
// travel as the SHA-256 of an operation file (persisted operations); the core admits the caller
// (key, scope, account mode, rate budget, Idempotency-Key) and the facade relays its answer: the error
// a core decided, and the RateLimit-*, Retry-After and Idempotent-Replayed headers it set.
import type { Response as ExpressResponse } from "express";
import { AppError } from "../core/shared/errors.ts";
import { FACADE_SECRET_HEADER, operationHash, PERSISTED_QUERY_NOT_FOUND, type FacadeRequest } from "../contract/facade-request.ts";
import { HttpError } from "../http/error-map.ts";

export interface CoreClient {
  request<T>(document: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<T>;
}

type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

/** What the facade tells the core about the /v1 request behind a call, found by the call's headers. */
export interface FacadeCall {
  describe(): FacadeRequest;
  /** Where the core's rate-limit and replay headers go. */
  res: ExpressResponse;
  /** Set once the request went to the core: a later error is the core's answer, not the facade's. */
  sent: boolean;
}

/** headers object (from v1.ts `forwardHeaders`) -> its /v1 request. */
export const facadeCalls = new WeakMap<Record<string, string>, FacadeCall>();

/** Headers of the core's answer that are part of the /v1 answer. */
const RELAYED = ["ratelimit-policy", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "idempotent-replayed"];

/** A core that cannot be reached (or does not answer in time) is the client's 503, never a hang. */
export const DEFAULT_CORE_TIMEOUT_MS = 15_000;

export interface CoreClientOptions {
  /** The core in this process (schema/in-process-entry.ts); otherwise HTTP, through `fetch` to `url`. */
  transport?: CoreTransport;
  fetch?: FetchFn;
  url?: string;
  /** FACADE_SECRET, sent to a core over HTTP so it believes the forwarded client address and /v1 context. */
  facadeSecret?: string;
  timeoutMs?: number;
}

type GraphQLErrorJson = { message: string; extensions?: Record<string, unknown> };
export type GraphQLResponse = { data?: unknown; errors?: readonly GraphQLErrorJson[] | null };

/** A GraphQL request as the facade sends it: a persisted operation's hash, or the document itself. */
export interface CoreRequestBody {
  query?: string;
  variables: Record<string, unknown>;
  extensions: Record<string, unknown>;
}

/** The core's answer: its JSON, and the headers it set (RELAYED). */
export interface CoreAnswer {
  json: GraphQLResponse;
  header(name: string): string | null;
}

/** How a request reaches the core. */
export type CoreTransport = (body: CoreRequestBody, headers: Record<string, string>) => Promise<CoreAnswer>;

/** The core over HTTP (or through a fetch function standing for it). */
function httpTransport(opts: CoreClientOptions): CoreTransport {
  const url = opts.url ?? "http://in-process/graphql";
  const fetchFn: FetchFn = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CORE_TIMEOUT_MS;
  return async (body, headers) => {
    let res: Response;
    let json: GraphQLResponse;
    try {
      res = await fetchFn(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/graphql-response+json, application/json", ...headers, ...(opts.facadeSecret ? { [FACADE_SECRET_HEADER]: opts.facadeSecret } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      json = (await res.json()) as GraphQLResponse;
    } catch {
      // Refused, reset, timed out, or not JSON (a proxy's error page): the core is not there.
      throw new AppError("core_unavailable");
    }
    // JSON that is no GraphQL answer (GRAPHQL_URL names something else): no core there either.
    if (!json || typeof json !== "object" || (!("data" in json) && !Array.isArray(json.errors))) throw new AppError("core_unavailable");
    return { json, header: (name) => res.headers.get(name) };
  };
}

export function createCoreClient(opts: CoreClientOptions): CoreClient {
  const send = opts.transport ?? httpTransport(opts);
  const hashes = new Map<string, string>();
  const hashOf = (document: string) => {
    let h = hashes.get(document);
    if (!h) hashes.set(document, (h = operationHash(document)));
    return h;
  };

  return {
    async request<T>(document: string, variables: Record<string, unknown>, headers: Record<string, string>) {
      const call = facadeCalls.get(headers);
      const extensions: Record<string, unknown> = { persistedQuery: { version: 1, sha256Hash: hashOf(document) } };
      if (call) {
        extensions.facade = call.describe();
        call.sent = true;
      }
      let answer = await send({ variables, extensions }, headers);
      // A core older than this facade does not know the operation: send the document itself (it takes
      // documents from authenticated callers, which the facade only forwards).
      if (answer.json.errors?.[0]?.extensions?.code === PERSISTED_QUERY_NOT_FOUND) answer = await send({ query: document, variables, extensions }, headers);
      if (call) {
        for (const name of RELAYED) {
          const value = answer.header(name);
          if (value !== null) call.res.set(name, value);
        }
      }
      const { json } = answer;
      if (json.errors?.length) throw fromGraphQLErrors(json.errors);
      if (json.data == null) throw new AppError("internal", { error: "internal error" });
      return json.data as T;
    },
  };
}

/** The core already decided status and body (error catalogue); the facade only relays them. */
function fromGraphQLErrors(errors: readonly GraphQLErrorJson[]): Error {
  const ext = errors[0]?.extensions;
  if (ext && typeof ext.status === "number" && ext.body && typeof ext.body === "object") {
    return new HttpError(ext.status, ext.body as Record<string, unknown>);
  }
  return new AppError("internal", { error: errors[0]?.message ?? "internal error" });
}
