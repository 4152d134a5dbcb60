// POST bodies: JSON, urlencoded or multipart (fields only), 100 kB at most. Anything else is 415.
import express, { type RequestHandler } from "express";
import multer from "multer";
import { AppError } from "../../core/shared/errors.ts";

const LIMIT = "100kb";
const ACCEPTED = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"];

const requireKnownType: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
  if (req.method === "POST" && hasBody && !ACCEPTED.some((t) => req.is(t))) throw new AppError("unsupported_media_type");
  next();
};

const requireObject: RequestHandler = (req, _res, next) => {
  if (req.method === "POST" && req.body !== undefined && (req.body === null || typeof req.body !== "object" || Array.isArray(req.body))) {
    throw new AppError("invalid_body", { error: "the body must be an object" });
  }
  next();
};

export function bodyParsing(): RequestHandler[] {
  const form = multer({ limits: { fieldSize: 100 * 1024, fields: 50, files: 0 } });
  return [
    requireKnownType,
    express.json({ limit: LIMIT, strict: true }),
    express.urlencoded({ extended: false, limit: LIMIT }),
    (req, res, next) => (req.is("multipart/form-data") ? form.none()(req, res, next) : next()),
    requireObject,
  ];
}
