// The facade's calls inside one process: the same Yoga instance and every hook of the one entry (the
// entry gate, persisted operations, document limits, execution with its masked errors), without an
// HTTP request and response made, encoded and read back for each /v1 call. Yoga's getResultForParams
// is the part of its request handling after the body is parsed and before the answer is written; the
// two steps around it that matter here are done the same way: the gate's rate-limit headers, and an
// Idempotency-Key's answer kept (or replayed) as the exact bytes an HTTP caller would get.
import { GraphQLError } from "graphql";
import { processRegularResult } from "graphql-yoga";
import type { Runtime } from "../core/runtime.ts";
import type { CoreAnswer, CoreRequestBody, CoreTransport, GraphQLResponse } from "../rest-facade/graphql-client.ts";
import { gateStateOf, markInProcess } from "./entry-gate.ts";
import { toGraphQLError } from "./errors.ts";
import { idempotencyOnResponse } from "./graphql-idempotency.ts";
import type { Yoga } from "./yoga.ts";

/** What the facade accepts, first choice: the media type Yoga would answer it with over HTTP. */
const ANSWER_TYPE = "application/graphql-response+json";

/** The little of a Request the hooks read: method (no mutation by GET), url and headers. */
function requestOf(headers: Record<string, string>): Request {
  const request = {
    method: "POST",
    url: "http://in-process/graphql",
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
  } as unknown as Request;
  markInProcess(request);
  return request;
}

type Result = { data?: unknown; errors?: readonly GraphQLError[] | null; extensions?: unknown };

/** The headers an HTTP answer would carry: the gate's RateLimit-*, and those its errors ask for (a 429's Retry-After), as Yoga sets them. */
function headersOf(rateHeaders: Record<string, string> | undefined, result: Result): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (headers: unknown) => {
    if (headers && typeof headers === "object") for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  };
  for (const error of result.errors ?? []) add((error.extensions?.http as { headers?: unknown } | undefined)?.headers);
  add(rateHeaders); // set last over HTTP too (entry-gate.ts onResponse)
  return out;
}

export function inProcessTransport(yoga: Yoga, runtime: Runtime): CoreTransport {
  return async (body: CoreRequestBody, headers: Record<string, string>): Promise<CoreAnswer> => {
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
    if (!state || (!state.replay && !state.recordId)) return { json: result as GraphQLResponse, header: (name) => rateHeaders[name] ?? null };
    // Idempotency-Key: the answer kept (or the one kept before) is the HTTP answer's bytes.
    const response = processRegularResult(result as never, yoga.fetchAPI, ANSWER_TYPE);
    const answered = (await idempotencyOnResponse(runtime, state, response, yoga.fetchAPI)) ?? response;
    const json = (await answered.json()) as GraphQLResponse;
    return { json, header: (name) => answered.headers.get(name) ?? rateHeaders[name] ?? null };
  };
}
