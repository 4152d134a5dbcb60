// Request ids, pino request logs (keys and card data redacted) and prom-client metrics per route.
import type { Request, RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "pino";
import client from "prom-client";
import { ulid } from "../core/shared/ids.ts";
import { registry } from "../core/shared/metrics.ts";
import { documentedRoute } from "../rest-facade/openapi/routes.ts";

export { registry };

const requests = new client.Counter({
  name: "http_requests_total",
  help: "HTTP requests by method, route and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
const latency = new client.Histogram({
  name: "http_request_duration_seconds",
  help: "HTTP request latency by method and route.",
  labelNames: ["method", "route"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

const V1 = /^\/v1(\/|$)/i;

/** The path of a request target: origin form (`/v1/…?q`), or absolute form as a proxy may send it. */
function pathOf(target: string): string | undefined {
  if (target.startsWith("/")) return target.split("?")[0];
  try {
    return new URL(target).pathname;
  } catch {
    return undefined;
  }
}

/** Distinct route labels kept; more would only come from a bug, and are counted under "other". */
const MAX_ROUTE_LABELS = 200;
const seenLabels = new Set<string>();

/**
 * The route template (never the raw path: ids would explode cardinality). A /v1 path is matched
 * against the OpenAPI document's templates, so a route keeps one label whatever answered it: the
 * route (200, 404), the key check (401), the body or Idempotency-Key checks (400), the limiter (429).
 * Elsewhere it is the Express route that matched, with its router's mount path as it was then
 * (`matched`); anything no route matched is "unmatched".
 */
function routeLabel(req: Request, matched: string | undefined): string {
  const path = pathOf(req.originalUrl);
  if (path === undefined) return "unmatched";
  const documented = documentedRoute(path);
  if (documented) return documented.label;
  // Under /v1, a route label without its /v1 mount is a /v1 route's stripped label, not another route.
  if (matched && (!V1.test(path) || V1.test(matched))) return matched;
  if (path === "/graphql" || path.startsWith("/graphql/")) return "/graphql";
  return "unmatched";
}

function bounded(label: string): string {
  if (seenLabels.has(label)) return label;
  if (seenLabels.size >= MAX_ROUTE_LABELS) return "other";
  seenLabels.add(label);
  return label;
}

const MATCHED = Symbol("matchedRoute");
const ROUTE = Symbol("route");
type Tracked = Request & { [MATCHED]?: string; [ROUTE]?: unknown };
const accessorsDefined = new WeakMap<object, Set<string>>();

/**
 * An accessor on the request's prototype (Express's app.request), defined once: one defined on each
 * request would make every request object a slow dictionary-mode object for the rest of its trip.
 */
function onRequestPrototype(req: Request, name: string, accessor: PropertyDescriptor): void {
  const proto = Object.getPrototypeOf(req) as object;
  const names = accessorsDefined.get(proto) ?? accessorsDefined.set(proto, new Set()).get(proto)!;
  if (names.has(name)) return;
  names.add(name);
  Object.defineProperty(proto, name, { configurable: true, ...accessor });
}

/**
 * The template is taken when Express dispatches to a route: req.baseUrl is then the route's router's
 * mount path. By the time the answer is sent, a path-mounted middleware (an error handler, a limiter)
 * may have set req.baseUrl to the raw path it matched, ids included.
 */
function trackRoutes(req: Request): void {
  onRequestPrototype(req, "route", {
    get(this: Tracked) {
      return this[ROUTE];
    },
    set(this: Tracked, value: { path?: unknown } | undefined) {
      this[ROUTE] = value;
      if (typeof value?.path === "string") this[MATCHED] = `${this.baseUrl}${value.path}`;
    },
  });
}

export const metrics: RequestHandler = (req, res, next) => {
  const end = latency.startTimer();
  trackRoutes(req);
  res.on("finish", () => {
    const route = bounded(routeLabel(req, (req as Tracked)[MATCHED]));
    requests.inc({ method: req.method, route, status: String(res.statusCode) });
    end({ method: req.method, route });
  });
  next();
};

/** The client's X-Request-Id when it is a sane token, else a new ULID; echoed on the answer. */
function requestId(req: { headers: Record<string, string | string[] | undefined> }, res: { setHeader(name: string, value: string): unknown }): string {
  const given = req.headers["x-request-id"];
  const id = typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : ulid();
  res.setHeader("X-Request-Id", id);
  return id;
}

// Query strings may hold e-mails; log the path only.
const requestFields = (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split("?")[0] });

const LOG = Symbol("log");
const LOG_FIELDS = Symbol("logFields");
type Logged = { [LOG]?: Logger; [LOG_FIELDS]?: { logger: Logger; id: string; method: string; url: string } };

/** `req.log` made on first use from what the request noted when it came in (its id, method and URL; routers below rewrite req.url). */
function lazyRequestLog(req: Request): void {
  onRequestPrototype(req, "log", {
    get(this: Logged) {
      const f = this[LOG_FIELDS];
      if (!this[LOG] && f) this[LOG] = f.logger.child({ req: requestFields(f) });
      return this[LOG];
    },
    set(this: Logged, value: Logger) {
      this[LOG] = value;
    },
  });
}

export function requestLogging(logger: Logger): RequestHandler {
  // Above info (LOG_LEVEL=warn) pino-http's line for a request is never written, yet it still builds a
  // child logger and its serializers for each one: about 9 % of the CPU of a /v1 read. Then the request
  // keeps its id, `req.log` is made only when something logs through it, and a 5xx still gets its line.
  if (!logger.isLevelEnabled("info")) {
    return (req, res, next) => {
      const id = requestId(req, res);
      const r = req as unknown as { id: string; log?: Logger } & Logged;
      r.id = id;
      lazyRequestLog(req);
      r[LOG_FIELDS] = { logger, id, method: req.method, url: req.url };
      const started = performance.now();
      res.on("finish", () => {
        if (res.statusCode >= 500) r.log!.error({ res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) }, "request errored");
      });
      next();
    };
  }
  return pinoHttp({
    logger,
    genReqId: (req, res) => requestId(req, res),
    serializers: { req: requestFields },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/metrics" },
  });
}
