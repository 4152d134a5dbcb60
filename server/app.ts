// What both HTTP apps share, the core process's (service.ts) and the facade alone's (facade-process.ts):
// the same base (no ETag or 304, request logs and ids, metrics, health) and the same end (docs, /v1,
// the routers a process adds, the 404 and the error handler). It loads nothing of the schema or the
// database, so the facade alone does not either.
import express, { type Express } from "express";
import type { Logger } from "pino";
import { AppError } from "../core/shared/errors.ts";
import { errorHandler } from "../http/error-map.ts";
import { trustProxyFromEnv } from "../http/trust-proxy.ts";
import type { CoreClient } from "../rest-facade/core-client.ts";
import { docsRouter } from "../rest-facade/openapi/docs.ts";
import { v1Router } from "../rest-facade/v1.ts";
import { publicMetricsRoute } from "./metrics-endpoint.ts";
import { metrics, requestLogging } from "./observability.ts";

/**
 * What both apps start with: no ETag or 304, request logs and ids, metrics, health. /metrics is served
 * here only to the bearer of `metricsToken` (METRICS_TOKEN); without it, not at all (metrics-endpoint.ts).
 */
export function baseApp(logger: Logger, opts: { metricsToken?: string } = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  // The client address is the socket's unless TRUST_PROXY names the proxies in front (http/trust-proxy.ts).
  app.set("trust proxy", trustProxyFromEnv());
  // Answers are live state (entitlements, balances): never a 304 against a client's cached copy (not
  // even for `If-None-Match: *`, which Express would honour without any ETag), and no SHA-1 of every
  // body to offer one.
  app.set("etag", false);
  Object.defineProperty(app.request, "fresh", { get: () => false, configurable: true });
  app.use(requestLogging(logger));
  app.use(metrics);
  app.get("/healthz", (_req, res) => void res.json({ ok: true }));
  app.get("/metrics", publicMetricsRoute(opts.metricsToken));
  return app;
}

/** What both apps end with: docs, /v1, the extra routers, then the 404 and the error handler. */
export function finishApp(app: Express, core: CoreClient, extra: express.Router[] = []): Express {
  app.use(docsRouter());
  app.use("/v1", v1Router(core));
  for (const router of extra) app.use(router);
  app.use(() => {
    throw new AppError("route_not_found");
  });
  app.use(errorHandler);
  return app;
}
