// What the /v1 facade and the core agree on (kept free of the schema, so the facade alone loads none
// of it): the headers only the facade may send, the persisted-operation hash, and what the facade
// tells the core about the REST request it translates, in the GraphQL request's `extensions.facade`.
// Believed only from the trusted facade (schema/entry-gate.ts); from anyone else it is ignored and the
// request is an ordinary GraphQL request.
import { sha256Hex } from "../core/shared/secrets.ts";

/** Headers only the facade may send: its shared secret, and the address of the client it serves. */
export const FACADE_SECRET_HEADER = "x-facade-secret";
export const FACADE_CLIENT_ADDRESS_HEADER = "x-facade-client-address";

/** A persisted operation's id: the SHA-256 (hex) of its document's text. */
export const operationHash = (document: string): string => sha256Hex(document);

/** The extension code of an unknown persisted operation: the facade then sends the document itself. */
export const PERSISTED_QUERY_NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND";
export interface FacadeRefusal {
  /**
   * `body`: the facade could not read the body (415, 413, 400): answered after authentication, rate
   * limits and scope, before Idempotency-Key, and never kept. `route`: the facade refused what it
   * read (a field of the wrong type, an unknown route): answered after Idempotency-Key, and kept for
   * replays like any answer.
   */
  stage: "body" | "route";
  status: number;
  body: Record<string, unknown>;
}

export interface FacadeRequest {
  method: string;
  /** The /v1 path, for the idempotency record. */
  path: string;
  /** requestHash({method, path, body}) of the REST request: "the same request" for Idempotency-Key. */
  fingerprint?: string;
  /** The facade's own refusal, answered in the core's order (see FacadeRefusal). */
  refusal?: FacadeRefusal;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** The facade's description, or null when absent or malformed. */
export function facadeRequestOf(extensions: unknown): FacadeRequest | null {
  const f = isRecord(extensions) ? extensions.facade : undefined;
  if (!isRecord(f) || typeof f.method !== "string" || typeof f.path !== "string") return null;
  const out: FacadeRequest = { method: f.method, path: f.path };
  if (typeof f.fingerprint === "string") out.fingerprint = f.fingerprint;
  const r = f.refusal;
  if (isRecord(r) && (r.stage === "body" || r.stage === "route") && typeof r.status === "number" && isRecord(r.body)) {
    out.refusal = { stage: r.stage, status: r.status, body: r.body };
  }
  return out;
}
