// The facade's calls inside one process: the same Yoga instance and every hook of the one entry (the
// entry gate, persisted operations, document limits, execution with its masked errors), without an
// HTTP request and response made, encoded and read back for each /v1 call. The facade's client
// (graphql-request) calls it as its `fetch` (contract/core-protocol.ts): the body and the answer are
// objects, not JSON. Yoga's getResultForParams is the part of its request handling after the body is
// parsed and before the answer is written; the two steps around it that matter here are done the same
// way: the gate's rate-limit headers, and an Idempotency-Key's answer kept (or replayed) as the exact
// bytes an HTTP caller would get.
import { GraphQLError } from "graphql";
import { processRegularResult } from "graphql-yoga";
import type { Runtime } from "../core/runtime.ts";
import { ANSWER_TYPE, InProcessAnswer, type GraphQLResponse, type HeaderReader, type InProcessFetch } from "../contract/core-protocol.ts";
import { gateStateOf, markInProcess } from "./entry-gate.ts";
import { toGraphQLError } from "./errors.ts";
import { idempotencyOnResponse } from "./graphql-idempotency.ts";
import type { Yoga } from "./yoga.ts";

/** The little of a Request the hooks read: method (no mutation by GET), url and headers. */
function requestOf(headers: HeaderReader): Request {
  const request = { method: "POST", url: "http://in-process/graphql", headers } as unknown as Request;
  markInProcess(request);
  return request;
}

type Result = { data?: unknown; errors?: readonly GraphQLError[] | null; extensions?: unknown };

/** The headers an HTTP answer would carry: the gate's RateLimit-*, and those its errors ask for (a 429's Retry-After), as Yoga sets them. */
function headersOf(rateHeaders: Record<string, string> | undefined, result: Result): Record<string, string> {
  const out: Record<string, string> = {};
  for (const error of result.errors ?? []) addHeaders(out, (error.extensions?.http as { headers?: unknown } | undefined)?.headers);
  addHeaders(out, rateHeaders); // set last over HTTP too (entry-gate.ts onResponse)
  return out;
}

// Not a closure inside headersOf: under tsx (keepNames) each named closure made per call is renamed
// with Object.defineProperty, which costs more than the rest of this function.
function addHeaders(out: Record<string, string>, headers: unknown): void {
  if (headers && typeof headers === "object") for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
}

/** The answer as JSON would carry it: keys left undefined are absent (graphql-request refuses them). */
function jsonOf(result: Result): GraphQLResponse {
  const json: GraphQLResponse = {};
  if (result.data !== undefined) json.data = result.data;
  if (result.errors != null) json.errors = result.errors;
  if (result.extensions != null) json.extensions = result.extensions;
  return json;
}

export function inProcessFetch(yoga: Yoga, runtime: Runtime): InProcessFetch {
  return async (_url, { body, headers }) => {
    const request = requestOf(headers);
    let result: Result;
    try {
      // Errors of the hooks before execution (the gate's 401/429, an unknown operation) are thrown,
      // as over HTTP; execution errors come back in the result, already masked.
      result = (await yoga.getResultForParams({ params: { query: body.query, variables: body.variables, extensions: body.extensions }, request }, {} as never)) as Result;
    } catch (e) {
      result = { errors: [toGraphQLError(e, runtime.logger)] };
    }
    const state = gateStateOf(request);
    const rateHeaders = headersOf(state?.rateHeaders, result);
    if (!state || (!state.replay && !state.recordId)) return new InProcessAnswer(jsonOf(result), (name) => rateHeaders[name] ?? null);
    // Idempotency-Key: the answer kept (or the one kept before) is the HTTP answer's bytes.
    const response = processRegularResult(result as never, yoga.fetchAPI, ANSWER_TYPE);
    const answered = (await idempotencyOnResponse(runtime, state, response, yoga.fetchAPI)) ?? response;
    const json = (await answered.json()) as GraphQLResponse;
    return new InProcessAnswer(json, (name) => answered.headers.get(name) ?? rateHeaders[name] ?? null);
  };
}
