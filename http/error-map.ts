// REST side of the error catalogue: every error becomes the contract's status and {error, code?} body.
// Anything unexpected is a logged 500 whose body reveals nothing.
import type { ErrorRequestHandler } from "express";
import { AppError, infrastructureError, isAppError } from "../core/shared/errors.ts";

/** A status and body already decided by the core, relayed from a GraphQL error. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.error ?? "error"));
  }
}

export function toHttp(err: unknown): { status: number; body: Record<string, unknown> } {
  if (err instanceof HttpError) return { status: err.status, body: err.body };
  if (isAppError(err)) return { status: err.status, body: err.body };
  const infra = infrastructureError(err);
  if (infra) return { status: infra.status, body: infra.body };
  const e = err as { type?: string; status?: number; code?: string };
  // body-parser and multer failures: malformed or oversized bodies are the client's fault.
  if (e?.type === "entity.too.large" || e?.code === "LIMIT_FIELD_VALUE" || e?.code === "LIMIT_FILE_SIZE") return fromKey("payload_too_large");
  if (e?.type === "entity.parse.failed" || e?.type === "encoding.unsupported" || e?.type === "charset.unsupported") return fromKey("invalid_body");
  if (typeof e?.code === "string" && e.code.startsWith("LIMIT_")) return fromKey("invalid_body");
  if (e?.status && e.status >= 400 && e.status < 500) return fromKey("invalid_body");
  return fromKey("internal");
}

function fromKey(key: ConstructorParameters<typeof AppError>[0]) {
  const e = new AppError(key);
  return { status: e.status, body: e.body };
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const { status, body } = toHttp(err);
  if (status >= 500) req.log?.error({ err }, "request failed");
  if (res.headersSent) return;
  if (status === 503) res.set("Retry-After", "1");
  res.status(status).json(body);
};
