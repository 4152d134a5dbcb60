// The facade's only way into the core: one GraphQL request per /v1 request, made with graphql-request,
// in-process by default (schema/in-process-entry.ts as the client's `fetch`: the same Yoga hooks, no
// HTTP request or response made and read), or over HTTP to a separately deployed core (GRAPHQL_URL).
// Documents travel as the SHA-256 of an operation file (persisted operations); the core admits the
// caller (key, scope, account mode, rate budget, Idempotency-Key) and the facade relays its answer:
// the error a core decided, and the RateLimit-*, Retry-After and Idempotent-Replayed headers it set.
import type { Response as ExpressResponse } from "express";
import { ClientError, GraphQLClient } from "graphql-request";
import { ANSWER_TYPE, type CoreRequestBody, type GraphQLResponse, type HeaderReader, type InProcessFetch } from "../contract/core-protocol.ts";
import { AppError } from "../core/shared/errors.ts";
import { FACADE_SECRET_HEADER, operationHash, PERSISTED_QUERY_NOT_FOUND, type FacadeRequest } from "../contract/facade-request.ts";
import { HttpError } from "../http/error-map.ts";

export interface CoreClient {
  /** `extensions`: more request extensions (the panel's `panel`, contract/panel-request.ts). */
  request<T>(document: string, variables: Record<string, unknown>, headers: Record<string, string>, extensions?: Record<string, unknown>): Promise<T>;
}

/** What the facade tells the core about the /v1 request behind a call, found by the call's headers. */
export interface FacadeCall {
  describe(): FacadeRequest;
  /** Where the core's rate-limit and replay headers go. */
  res: ExpressResponse;
  /** Set once the request went to the core: a later error is the core's answer, not the facade's. */
  sent: boolean;
}

const FACADE_CALL = Symbol("facadeCall");

/**
 * Ties a headers object (v1.ts `forwardHeaders`) to its /v1 request, as a hidden property of the headers
 * rather than a WeakMap entry: V8's young-generation GC keeps an old WeakMap's values alive (only the
 * keys are weak to it), so each entry's call, and through its `res` the whole request, was copied into
 * the old generation: under load, about a third of what every /v1 request promoted (decision 0046).
 * Not enumerable: graphql-request and Headers copy only enumerable keys.
 */
export function attachFacadeCall(headers: Record<string, string>, call: FacadeCall): void {
  Object.defineProperty(headers, FACADE_CALL, { value: call, enumerable: false });
}

function facadeCallOf(headers: Record<string, string>): FacadeCall | undefined {
  return (headers as { [FACADE_CALL]?: FacadeCall })[FACADE_CALL];
}

/** Headers of the core's answer that are part of the /v1 answer. */
const RELAYED = ["ratelimit-policy", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "idempotent-replayed"];

/** A core that cannot be reached (or does not answer in time) is the client's 503, never a hang. */
export const DEFAULT_CORE_TIMEOUT_MS = 15_000;

export type CoreClientOptions =
  /** The core in this process (schema/in-process-entry.ts). */
  | { inProcess: InProcessFetch }
  | {
      /** The core's GraphQL endpoint over HTTP. */
      url: string;
      /** FACADE_SECRET, sent to a core over HTTP so it believes the forwarded client address and /v1 context. */
      facadeSecret?: string;
      timeoutMs?: number;
    };

/**
 * graphql-request sends `{ query, variables, operationName }`; the facade sends a persisted operation's
 * hash and its own extensions instead. So the client is handed the whole CoreRequestBody in the
 * `variables` slot, and its serializer writes that body, as JSON over HTTP, or as the object itself
 * in process (where `parse` passes the answer object back the same way).
 */
type Outgoing = { variables: CoreRequestBody };
const overHttp = { stringify: (out: Outgoing) => JSON.stringify(out.variables), parse: (text: string) => JSON.parse(text) as unknown };
const inProcess = {
  stringify: (out: Outgoing) => out.variables as unknown as string,
  parse: (answer: string) => answer as unknown,
};

/** The core's answer: its JSON's data and errors, and the headers it set (RELAYED). */
type Answer = GraphQLResponse & { headers: HeaderReader };

export function createCoreClient(opts: CoreClientOptions): CoreClient {
  // Only POST, the document never parsed here (excludeOperationName), and errors returned with the data
  // (errorPolicy "all"): the facade maps them itself.
  const common: ConstructorParameters<typeof GraphQLClient>[1] = { method: "POST", excludeOperationName: true, errorPolicy: "all" };
  const http = "url" in opts;
  const client = http
    ? new GraphQLClient(opts.url, {
        ...common,
        headers: { accept: `${ANSWER_TYPE}, application/json`, ...(opts.facadeSecret ? { [FACADE_SECRET_HEADER]: opts.facadeSecret } : {}) },
        jsonSerializer: overHttp,
      })
    : // graphql-request's `fetch` is typed as the global one; this one takes the body object it is given.
      new GraphQLClient("http://in-process/graphql", { ...common, fetch: opts.inProcess as unknown as typeof fetch, jsonSerializer: inProcess });
  const timeoutMs = http ? (opts.timeoutMs ?? DEFAULT_CORE_TIMEOUT_MS) : 0;

  // `query` is only what graphql-request requires; the serializer sends `body`, which has it or not.
  const send = async (document: string, body: CoreRequestBody, headers: Record<string, string>): Promise<Answer> => {
    if (!http) return (await client.rawRequest<unknown, CoreRequestBody>({ query: document, variables: body, requestHeaders: headers })) as Answer;
    let answer: Answer;
    try {
      answer = (await client.rawRequest<unknown, CoreRequestBody>({ query: document, variables: body, requestHeaders: headers, signal: AbortSignal.timeout(timeoutMs) })) as Answer;
    } catch (e) {
      // The core's refusals (401, 429, an unknown operation's 400) come with a status other than 200.
      if (!(e instanceof ClientError)) throw new AppError("core_unavailable"); // refused, reset, timed out, or 200 and not JSON
      answer = e.response as Answer;
    }
    // No GraphQL answer (a proxy's error page, or GRAPHQL_URL names something else): no core there.
    if (answer.data === undefined && !Array.isArray(answer.errors)) throw new AppError("core_unavailable");
    return answer;
  };

  const hashes = new Map<string, string>();
  const hashOf = (document: string) => {
    let h = hashes.get(document);
    if (!h) hashes.set(document, (h = operationHash(document)));
    return h;
  };

  return {
    async request<T>(document: string, variables: Record<string, unknown>, headers: Record<string, string>, more?: Record<string, unknown>) {
      const call = facadeCallOf(headers);
      const extensions: Record<string, unknown> = { ...more, persistedQuery: { version: 1, sha256Hash: hashOf(document) } };
      if (call) {
        extensions.facade = call.describe();
        call.sent = true;
      }
      let answer = await send(document, { variables, extensions }, headers);
      // A core older than this facade does not know the operation: send the document itself (it takes
      // documents from authenticated callers, which the facade only forwards).
      if (answer.errors?.[0]?.extensions?.code === PERSISTED_QUERY_NOT_FOUND) answer = await send(document, { query: document, variables, extensions }, headers);
      if (call) {
        for (const name of RELAYED) {
          const value = answer.headers.get(name);
          if (value !== null) call.res.set(name, value);
        }
      }
      if (answer.errors?.length) throw fromGraphQLErrors(answer.errors);
      if (answer.data == null) throw new AppError("internal", { error: "internal error" });
      return answer.data as T;
    },
  };
}

/** The core already decided status and body (error catalogue); the facade only relays them. */
function fromGraphQLErrors(errors: NonNullable<GraphQLResponse["errors"]>): Error {
  const ext = errors[0]?.extensions;
  if (ext && typeof ext.status === "number" && ext.body && typeof ext.body === "object") {
    return new HttpError(ext.status, ext.body as Record<string, unknown>);
  }
  return new AppError("internal", { error: errors[0]?.message ?? "internal error" });
}
