// Request ids, pino request logs (keys and card data redacted) and prom-client metrics per route.
import type { Request, RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "pino";
import client from "prom-client";
import { ulid } from "../core/shared/ids.ts";
import { registry } from "../core/shared/metrics.ts";

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

/** The matched route template (never the raw path: ids would explode cardinality). */
function routeLabel(req: Request): string {
  if (req.route?.path) return `${req.baseUrl}${String(req.route.path)}`;
  if (req.originalUrl.startsWith("/graphql")) return "/graphql";
  return "unmatched";
}

export const metrics: RequestHandler = (req, res, next) => {
  const end = latency.startTimer();
  res.on("finish", () => {
    const route = routeLabel(req);
    requests.inc({ method: req.method, route, status: String(res.statusCode) });
    end({ method: req.method, route });
  });
  next();
};

export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const given = req.headers["x-request-id"];
      const id = typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : ulid();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    // Query strings may hold e-mails; log the path only.
    serializers: { req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split("?")[0] }) },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/metrics" },
  });
}
