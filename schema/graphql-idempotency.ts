// Idempotency-Key on GraphQL (Stripe semantics, service-contract §6), for /v1 and GraphQL clients alike:
// a mutation sent with the header by a tenant key runs once; the same key and the same request within
// 24 h get the first answer again, byte for byte, with `Idempotent-Replayed: true`; the same key with
// another request is 422 idempotency_key_reused; one still running is 409 idempotency_key_in_use.
// "The same request" is the /v1 request (method, path, body) for the facade, the operation and its
// variables for a GraphQL client. Keys are per API key (core/idempotency/idempotent-request.ts).
// Who may run the operation is decided first (root-field-access.ts): a stored answer never reaches a
// key that could not have made the request. The operator token has no API key: its header is ignored.
import { GraphQLError, type ExecutionArgs } from "graphql";
import type { FetchAPI } from "graphql-yoga";
import { beginIdempotentRequest, finishIdempotentRequest, requestHash } from "../core/idempotency/idempotent-request.ts";
import { isAppError, type AppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import type { Context } from "./context.ts";
import type { GateState } from "./entry-gate.ts";
import type { FacadeRefusal } from "../contract/facade-request.ts";
import { rootFieldRefusal, selectedOperation } from "./root-field-access.ts";

export interface IdempotencyState {
  idempotencyKey?: string;
  /** The request as the client sent it (before a persisted operation is looked up). */
  params: { query: string | null; operationName: string | null; variables: unknown; extensions: unknown };
  /** The stored answer to send again instead of this one. */
  replay?: { status: number; body: string };
  /** The record this request's answer goes into. */
  recordId?: string;
}

/** A GraphQL client's request: its document (or persisted operation id), operation name and variables. */
function graphqlFingerprint(params: IdempotencyState["params"]): string {
  const persisted = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash ?? null;
  return requestHash({ method: "POST", path: "/graphql", body: { query: params.query, persisted, operationName: params.operationName, variables: params.variables ?? {} } });
}

/** The facade's refusal as a GraphQL error carrying the status and body it decided. */
function facadeRefusalError(refusal: FacadeRefusal): GraphQLError {
  const code = typeof refusal.body.code === "string" ? refusal.body.code : "refused";
  return new GraphQLError(String(refusal.body.error ?? code), { extensions: { code, status: refusal.status, body: refusal.body } });
}

/** Before execution: "replay", a refusal, or null to run the operation. */
export async function idempotencyOnExecute(runtime: Runtime, state: GateState, args: ExecutionArgs): Promise<"replay" | AppError | GraphQLError | null> {
  const ctx = args.contextValue as Context;
  const op = selectedOperation(args.document, args.operationName);
  const keyed = state.idempotencyKey !== undefined && op?.operation === "mutation" && state.auth.kind === "tenant";
  const refusal = state.facade?.refusal;
  if (!keyed && !refusal) return null;
  const denied = rootFieldRefusal(args.schema, args.document, args.operationName, ctx.actor);
  if (denied) return denied;
  if (refusal?.stage === "body") return facadeRefusalError(refusal);
  if (keyed && state.auth.kind === "tenant") {
    try {
      const start = await beginIdempotentRequest(runtime.db.prisma, runtime.wallClock, {
        tenantId: state.auth.tenantId,
        apiKeyId: state.auth.keyId,
        key: state.idempotencyKey!,
        method: state.facade?.method ?? "POST",
        path: state.facade?.path ?? "/graphql",
        fingerprint: state.facade?.fingerprint ?? graphqlFingerprint(state.params),
      });
      if (start.kind === "replay") {
        state.replay = { status: start.status, body: start.body };
        return "replay";
      }
      state.recordId = start.id;
    } catch (e) {
      if (isAppError(e)) return e;
      throw e;
    }
  }
  return refusal ? facadeRefusalError(refusal) : null;
}

/** The status the answer stands for: its first error's (a GraphQL answer is often HTTP 200), else the HTTP one. */
function outcomeOf(text: string, status: number): number {
  try {
    const s = (JSON.parse(text) as { errors?: { extensions?: { status?: unknown } }[] }).errors?.[0]?.extensions?.status;
    return typeof s === "number" ? s : status;
  } catch {
    return status;
  }
}

/** After execution: the replayed answer, or this answer once stored; undefined leaves the response as it is. */
export async function idempotencyOnResponse(runtime: Runtime, state: GateState, response: Response, fetchAPI: FetchAPI): Promise<Response | undefined> {
  if (state.replay) {
    // Copied name by name, without the length: a copy of Yoga's headers that then loses a name also
    // loses its Content-Type (the replay went out as text/plain).
    const headers = new fetchAPI.Headers();
    response.headers.forEach((value, name) => {
      if (name.toLowerCase() !== "content-length") headers.set(name, value);
    });
    headers.set("Idempotent-Replayed", "true");
    return new fetchAPI.Response(state.replay.body, { status: state.replay.status, headers });
  }
  if (!state.recordId) return undefined;
  const text = await response.text();
  // Stored before answering, so an immediate retry replays instead of hearing "in use".
  await finishIdempotentRequest(runtime.db.prisma, state.recordId, response.status, text, outcomeOf(text, response.status)).catch((err) =>
    runtime.logger.error({ err, requestId: state.requestId }, "idempotency record failed"),
  );
  return new fetchAPI.Response(text, { status: response.status, headers: response.headers });
}
