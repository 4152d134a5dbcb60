// How the /v1 facade and the GraphQL core talk, whichever side of a socket the core is on. The facade
// (rest-facade/core-client.ts) sends every call through graphql-request; over HTTP the body and the
// answer are JSON, in one process (schema/in-process-entry.ts) they are the objects themselves, handed
// over through graphql-request's `fetch` and `jsonSerializer` options with nothing encoded or parsed.
// The headers only the facade may send and what it says about the /v1 request are in
// contract/facade-request.ts.

type GraphQLErrorJson = { message: string; extensions?: Record<string, unknown> };
export type GraphQLResponse = { data?: unknown; errors?: readonly GraphQLErrorJson[] | null; extensions?: unknown };

/** A GraphQL request as the facade sends it: a persisted operation's hash, or the document itself. */
export interface CoreRequestBody {
  query?: string;
  variables: Record<string, unknown>;
  extensions: Record<string, unknown>;
}

/** What the facade accepts, first choice; also the media type of an answer made in process. */
export const ANSWER_TYPE = "application/graphql-response+json";

/** The part of the Headers API either side reads. Names are matched without regard to case. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The part of a fetch Response that graphql-request reads. In process, `text()` gives the answer
 * object itself (the in-process serializer's `parse` passes it through), and the status is 200: the
 * facade reads the core's decision from the errors, as it does from an HTTP answer's body.
 */
export interface InProcessResponse {
  ok: true;
  status: 200;
  headers: HeaderReader;
  text(): Promise<GraphQLResponse>;
}

/** The core in this process, in the shape of graphql-request's `fetch`: the body is the request object, not JSON. */
export type InProcessFetch = (url: URL | string, init: { body: CoreRequestBody; headers: HeaderReader }) => Promise<InProcessResponse>;

/**
 * An answer made in process, as graphql-request reads it; `header` gives the headers an HTTP answer
 * would carry, by lowercase name. A class: nothing is built per call but the instance.
 */
export class InProcessAnswer implements InProcessResponse, HeaderReader {
  readonly ok = true;
  readonly status = 200;
  constructor(
    private readonly json: GraphQLResponse,
    private readonly header: (lowercaseName: string) => string | null,
  ) {}
  get headers(): HeaderReader {
    return this;
  }
  get(name: string): string | null {
    const lower = name.toLowerCase();
    return lower === "content-type" ? ANSWER_TYPE : this.header(lower);
  }
  text(): Promise<GraphQLResponse> {
    return Promise.resolve(this.json);
  }
}
