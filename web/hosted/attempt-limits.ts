// Attempt limits on the hosted forms: POST /checkout/{offer_id} and
// POST /pay/{token} of LIVE tenants, per client address (every attempt) and per offer (per link for
// /pay; refused attempts only: declines, bad coupons, invalid forms), each in a one-minute window.
// Card testers need many attempts and are mostly declined; a buyer needs a few, and a launch's
// many approved sales of one offer must not lock that offer. A SANDBOX tenant's
// form moves no money and its test cards are public, so it is not limited (the test suites make
// thousands of sandbox checkouts from one loopback address). A refused attempt is a 429 with
// Retry-After before the body is even read: nothing is charged and no row is touched.
// Client address: the socket's (trust proxy is off). REDIS_URL shares the counters across instances.
import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import { AppError } from "../../core/shared/errors.ts";

const WINDOW_MS = 60_000;
export const DEFAULT_ATTEMPTS_PER_ADDRESS_PER_MINUTE = 10;
export const DEFAULT_ATTEMPTS_PER_OFFER_PER_MINUTE = 60;
export const TOO_MANY_ATTEMPTS = "muitas tentativas; aguarde um minuto e tente novamente";

export interface AttemptLimitOptions {
  storeFor?: (prefix: string) => Store;
}

/** The form's target: its offer or link id, and whether its tenant is LIVE; null when unknown (the route answers 404). */
export type AttemptTarget = { id: string; live: boolean } | null;

/** A positive integer from the environment, or the default; anything else stops the start with a clear message. */
function perMinute(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number of attempts per minute (got "${raw}")`);
  return n;
}

export function attemptLimitsFromEnv() {
  return {
    perAddress: perMinute("CHECKOUT_ATTEMPTS_PER_ADDRESS_PER_MINUTE", DEFAULT_ATTEMPTS_PER_ADDRESS_PER_MINUTE),
    perTarget: perMinute("CHECKOUT_ATTEMPTS_PER_OFFER_PER_MINUTE", DEFAULT_ATTEMPTS_PER_OFFER_PER_MINUTE),
  };
}

/** The refusal goes to the router's error handler, which answers JSON or a pt-BR page (Retry-After is already set). */
const refuse = (_req: Request, _res: Response, next: (err: unknown) => void) => next(new AppError("rate_limited", { error: TOO_MANY_ATTEMPTS }));

/**
 * `form`: "checkout" or "pay" (separate counters); `target` finds the offer or link the attempt is
 * about. Mounted after the CSRF guard and before body parsing.
 */
export function attemptLimits(form: "checkout" | "pay", target: (req: Request, res: Response) => Promise<AttemptTarget>, opts: AttemptLimitOptions = {}): RequestHandler {
  const limits = attemptLimitsFromEnv();
  const common = {
    windowMs: WINDOW_MS,
    standardHeaders: "draft-6" as const,
    legacyHeaders: false,
    handler: refuse,
  };
  const perAddress = rateLimit({
    ...common,
    limit: limits.perAddress,
    // IPv6 clients count per /56, as one household or host usually holds a whole prefix.
    keyGenerator: (req) => ipKeyGenerator(req.socket.remoteAddress ?? "unknown"),
    ...(opts.storeFor ? { store: opts.storeFor(`rl:${form}:address:`) } : {}),
  });
  const perTarget = rateLimit({
    ...common,
    limit: limits.perTarget,
    // An answer below 400 (a sale, a Pix QR) gives its attempt back.
    skipSuccessfulRequests: true,
    keyGenerator: (_req, res) => String(res.locals.attemptTarget),
    ...(opts.storeFor ? { store: opts.storeFor(`rl:${form}:target:`) } : {}),
  });
  return async (req, res, next) => {
    const found = await target(req, res);
    if (!found?.live) return next();
    res.locals.attemptTarget = found.id;
    // The address first: one address over its limit does not use up the offer's budget.
    perAddress(req, res, (err?: unknown) => (err ? next(err) : perTarget(req, res, next)));
  };
}
