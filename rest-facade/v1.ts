// The /v1 router: body parsing, the routes, a 404, and the facade's own refusals. Everything about
// who the caller is (key, scope, account mode, rate budget) and Idempotency-Key is the core's
// (schema/entry-gate.ts): each route is one GraphQL call carrying the caller's headers. A request the
// facade refuses itself (a body it cannot read, a field of the wrong type, an unknown route) is still
// sent to the core first, with the refusal, so the core's answers come first in the contract's order
// (401, 429, 403, then the body) and a kept refusal replays like any other answer.
import { Router, type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler } from "express";
import { requestHash } from "../core/idempotency/idempotent-request.ts";
import { AppError } from "../core/shared/errors.ts";
import { FACADE_CLIENT_ADDRESS_HEADER, type FacadeRefusal } from "../contract/facade-request.ts";
import { toHttp } from "../http/error-map.ts";
import { attachFacadeCall, type CoreClient, type FacadeCall } from "./core-client.ts";
import { bodyParsing } from "../http/body.ts";
import { documentedOperation } from "./openapi/routes.ts";
import { loadOperation } from "./operations.ts";
import { customerRoutes } from "./routes/v1/customers.ts";
import { readRoutes } from "./routes/v1/reads.ts";
import { chargeAndLinkRoutes } from "./routes/v1/charge-and-links.ts";
import { planChangeRoutes } from "./routes/v1/plan-changes.ts";
import { subscriptionLifecycleRoutes } from "./routes/v1/subscription-lifecycle.ts";
import { paymentAndOrderRoutes } from "./routes/v1/payments-and-orders.ts";
import { renewalCampaignRoutes } from "./routes/v1/renewal-campaigns.ts";

declare module "express-serve-static-core" {
  interface Request {
    facadeCall?: FacadeCall;
    /** The facade's own refusal of this request, told to the core (FacadeRefusal). */
    refusal?: FacadeRefusal;
    bodyRefused?: boolean;
  }
}

function callOf(req: Request): FacadeCall {
  req.facadeCall ??= {
    res: req.res!,
    sent: false,
    describe() {
      const method = req.method;
      const path = req.baseUrl + req.path;
      const keyed = method === "POST" && req.get("idempotency-key") !== undefined;
      return {
        method,
        path,
        // The body as parsed (key order aside): the same /v1 request as before the core held the keys.
        ...(keyed && !req.bodyRefused ? { fingerprint: requestHash({ method, path, body: req.body }) } : {}),
        ...(req.refusal ? { refusal: req.refusal } : {}),
      };
    },
  };
  return req.facadeCall;
}

/** What the core needs to know about the HTTP caller. */
function forwardHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: req.get("authorization") ?? "",
    "x-request-id": String(req.id ?? ""),
    // The socket's address, or a trusted proxy's X-Forwarded-For (TRUST_PROXY): the core believes it only from the facade.
    [FACADE_CLIENT_ADDRESS_HEADER]: req.ip ?? req.socket.remoteAddress ?? "",
  };
  // Idempotency-Key belongs to POST (service-contract §6); on a GET it means nothing.
  const key = req.method === "POST" ? req.get("idempotency-key") : undefined;
  if (key !== undefined) headers["idempotency-key"] = key;
  attachFacadeCall(headers, callOf(req));
  return headers;
}

/** Body parsing whose refusals are marked as such (answered before Idempotency-Key, never kept). */
const bodyStage =
  (handler: RequestHandler): RequestHandler =>
  (req, res, next) => {
    const done = markingRefusals(req, next);
    try {
      const out = handler(req, res, done) as unknown;
      if (out instanceof Promise) out.catch(done);
    } catch (e) {
      done(e);
    }
  };

// Returned, not bound to a name where it is made: under tsx (keepNames) a named closure made per
// request is renamed with Object.defineProperty, and every request passes all the body stages.
function markingRefusals(req: Request, next: NextFunction): (err?: unknown) => void {
  return (err) => {
    if (err && err !== "route" && err !== "router") req.bodyRefused = true;
    next(err);
  };
}

const kebab = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const documents = new Map<string, string>();
const documentFor = (name: string) => documents.get(name) ?? documents.set(name, loadOperation(name)).get(name)!;

/**
 * The operation a refused request is admitted with: its route's own (so its scope and account-mode
 * rules apply), or for an unknown route an empty query (a read) or mutation (a write) by method.
 */
function admissionDocument(req: Request): string {
  const op = documentedOperation(req.method, req.baseUrl + req.path);
  if (op) return documentFor(kebab(op.operationId));
  return documentFor(req.method === "GET" || req.method === "HEAD" ? "admit-read" : "admit-write");
}

/** The facade's own refusal goes through the core first; the core's answer wins. */
function admission(core: CoreClient): ErrorRequestHandler {
  return async (err, req, _res, next) => {
    if (callOf(req).sent) return next(err); // the core answered (or could not be reached)
    const { status, body } = toHttp(err);
    if (status >= 500) return next(err); // the facade's own fault: nothing to ask the core
    req.refusal = { stage: req.bodyRefused ? "body" : "route", status, body };
    try {
      await core.request(admissionDocument(req), {}, forwardHeaders(req));
    } catch (coreAnswer) {
      return next(coreAnswer);
    }
    next(err);
  };
}

export function v1Router(core: CoreClient): Router {
  const r = Router();
  r.use(bodyParsing().map(bodyStage));
  r.use(readRoutes(core, forwardHeaders));
  r.use(customerRoutes(core, forwardHeaders));
  r.use(subscriptionLifecycleRoutes(core, forwardHeaders));
  r.use(planChangeRoutes(core, forwardHeaders));
  r.use(chargeAndLinkRoutes(core, forwardHeaders));
  r.use(paymentAndOrderRoutes(core, forwardHeaders));
  r.use(renewalCampaignRoutes(core, forwardHeaders));
  r.use(() => {
    throw new AppError("route_not_found");
  });
  r.use(admission(core));
  return r;
}
