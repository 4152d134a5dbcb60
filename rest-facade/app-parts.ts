// What the process's app (app.ts) and the facade alone (facade-app.ts) share: no ETag or 304,
// request logs and ids, metrics, health; docs, /v1 and the 404 last.
import express, { type Express } from "express";
import type { Logger } from "pino";
import { AppError } from "../core/shared/errors.ts";
import { errorHandler } from "./error-map.ts";
import type { CoreClient } from "./core-client.ts";
import { publicMetricsRoute } from "./metrics-endpoint.ts";
import { metrics, requestLogging } from "./observability.ts";
import { docsRouter } from "./openapi/docs.ts";
import { v1Router } from "./v1.ts";

/**
 * What every HTTP surface shares: no ETag or 304, request logs and ids, metrics. /metrics is served
 * here only to the bearer of `metricsToken` (METRICS_TOKEN); without it, not at all (metrics-endpoint.ts).
 */
export function baseApp(logger: Logger, opts: { metricsToken?: string } = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);
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

