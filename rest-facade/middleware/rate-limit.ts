// 429 per API key (service-contract §5): 100 reads/s and 20 writes/s by default, configurable per
// tenant, burst 2x (a 2 s window holding two seconds' worth). REDIS_URL shares counters across instances.
import type { Request, RequestHandler } from "express";
import { rateLimit, type Store } from "express-rate-limit";
import { AppError } from "../../core/shared/errors.ts";

export const DEFAULT_READ_PER_SECOND = 100;
export const DEFAULT_WRITE_PER_SECOND = 20;
export const WINDOW_MS = 2_000;

export interface RateLimitOptions {
  /** Builds a store per limiter (Redis when configured); memory when absent. */
  storeFor?: (prefix: string) => Store;
}

function limiter(kind: "read" | "write", perSecond: (req: Request) => number, opts: RateLimitOptions): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: (req) => perSecond(req) * (WINDOW_MS / 1000),
    keyGenerator: (req) => `${kind}:${req.caller?.keyId ?? "anonymous"}`,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    ...(opts.storeFor ? { store: opts.storeFor(`rl:${kind}:`) } : {}),
    handler: (_req, res) => {
      const e = new AppError("rate_limited");
      res.status(e.status).json(e.body);
    },
  });
}

/** GETs that need the write scope (they may create a record) count as writes. */
const WRITE_GETS = [/^\/renewal-campaigns\/[^/]+\/link\/?$/];

function countsAsRead(req: Request): boolean {
  return (req.method === "GET" || req.method === "HEAD") && !WRITE_GETS.some((re) => re.test(req.path));
}

export function rateLimits(opts: RateLimitOptions = {}): RequestHandler {
  const reads = limiter("read", (req) => req.caller?.tenant.readRateLimit ?? DEFAULT_READ_PER_SECOND, opts);
  const writes = limiter("write", (req) => req.caller?.tenant.writeRateLimit ?? DEFAULT_WRITE_PER_SECOND, opts);
  return (req, res, next) => (countsAsRead(req) ? reads(req, res, next) : writes(req, res, next));
}
