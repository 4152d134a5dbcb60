// POST bodies: JSON, urlencoded or multipart (fields only), 100 kB at most. Anything else is 415.
// Bodies of other methods are not read.
import express, { type RequestHandler } from "express";
import multer from "multer";
import { AppError } from "../core/shared/errors.ts";

const LIMIT = "100kb";
const LIMIT_BYTES = 100 * 1024;
const ACCEPTED = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"];
/** No documented field is nested; deeper bodies would only feed recursion further down (idempotency hash). */
const MAX_DEPTH = 32;
/** A UTF-16 surrogate not in a pair: JSON may spell one ("\ud800"), but no UTF-8 text (PostgreSQL) can hold it. */
const LONE_SURROGATE = /\p{Cs}/u;

const requireKnownType: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
  if (req.method === "POST" && hasBody && !ACCEPTED.some((t) => req.is(t))) throw new AppError("unsupported_media_type");
  next();
};

/** What is wrong with a parsed body's shape or text, if anything; walked without recursion. */
function bodyFault(body: unknown, maxDepth: number): string | null {
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > maxDepth) return "the body is nested too deeply";
    if (typeof v === "string" && LONE_SURROGATE.test(v)) return "the body holds an unpaired UTF-16 surrogate";
    if (!v || typeof v !== "object") continue;
    for (const [k, x] of Object.entries(v)) {
      if (LONE_SURROGATE.test(k)) return "the body holds an unpaired UTF-16 surrogate";
      stack.push([x, d + 1]);
    }
  }
  return null;
}

const requireObject: RequestHandler = (req, _res, next) => {
  if (req.method === "POST" && req.body !== undefined && (req.body === null || typeof req.body !== "object" || Array.isArray(req.body))) {
    throw new AppError("invalid_body", { error: "the body must be an object" });
  }
  // Refused here, before idempotency and the core: nothing is stored for such a body.
  const fault = req.body === undefined ? null : bodyFault(req.body, MAX_DEPTH);
  if (fault) throw new AppError("invalid_body", { error: fault });
  next();
};

/**
 * Multipart fields only. multer caps each field, not the whole body (50 fields of 100 kB each would
 * pass): the declared length is refused up front, a chunked body is counted while busboy reads it.
 * A malformed form (no boundary, cut short, a part without a name) is the client's 400, not a 500;
 * multer's size limits stay 413 (error-map).
 */
function multipartFields(): RequestHandler {
  const none = multer({ limits: { fieldSize: LIMIT_BYTES, fields: 50, files: 0 } }).none();
  return (req, res, next) => {
    if (!req.is("multipart/form-data")) return next();
    if (Number(req.get("content-length") ?? 0) > LIMIT_BYTES) throw new AppError("payload_too_large");
    let seen = 0;
    const count = (chunk: Buffer) => void (seen += chunk.length);
    req.on("data", count);
    none(req, res, (err?: unknown) => {
      req.off("data", count);
      if (seen > LIMIT_BYTES) return next(new AppError("payload_too_large"));
      if (!err || (err instanceof multer.MulterError && err.code.startsWith("LIMIT_"))) return next(err);
      next(new AppError("invalid_body", { error: "the multipart body is malformed" }));
    });
  };
}

/** Only POST carries a body in /v1; a body sent with a GET means nothing and is not read. */
const onPost =
  (handler: RequestHandler): RequestHandler =>
  (req, res, next) =>
    req.method === "POST" ? handler(req, res, next) : next();

export function bodyParsing(): RequestHandler[] {
  return [
    requireKnownType,
    onPost(express.json({ limit: LIMIT, strict: true })),
    onPost(express.urlencoded({ extended: false, limit: LIMIT })),
    onPost(multipartFields()),
    requireObject,
  ];
}
