// The two HTTP apps, one per process kind. The core process's (createApp): GraphQL (Yoga), the /v1
// facade calling it in process, docs, health, metrics and the routers its service adds (pages, gateway
// notices, demo receiver). The facade alone's (createFacadeApp): /v1 and docs in front of a separately
// deployed core, no database, no runtime, no schema. Both share the same base and the same end.
import express, { type Express } from "express";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import type { Runtime } from "../core/runtime.ts";
import { AppError } from "../core/shared/errors.ts";
import { errorHandler } from "../http/error-map.ts";
import { createCoreClient, type CoreClient } from "../rest-facade/graphql-client.ts";
import { docsRouter } from "../rest-facade/openapi/docs.ts";
import { v1Router } from "../rest-facade/v1.ts";
import { inProcessTransport } from "../schema/in-process-entry.ts";
import type { Yoga } from "../schema/yoga.ts";
import { mountGraphQL } from "./graphql-mount.ts";
import { publicMetricsRoute } from "./metrics-endpoint.ts";
import { metrics, requestLogging } from "./observability.ts";

export interface AppOptions {
  /** Reach a separately deployed core over HTTP instead of in-process (with facadeSecret). */
  graphqlUrl?: string;
  /** FACADE_SECRET, shared with that core. */
  facadeSecret?: string;
  /** Rate-limit stores of /graphql (Redis with REDIS_URL); /v1 is counted by the core's. */
  storeFor?: (prefix: string) => Store;
  /** Extra routers mounted before the 404 (hosted pages, demo receiver). */
  extra?: express.Router[];
  /** METRICS_TOKEN: /metrics on this app for its bearer only; unset, this app serves no /metrics. */
  metricsToken?: string;
}

export interface FacadeAppOptions {
  /** The core's GraphQL endpoint (GRAPHQL_URL). */
  graphqlUrl: string;
  /** FACADE_SECRET, shared with the core: it believes the forwarded client address only with it. */
  facadeSecret: string;
  logger: Logger;
  /** How long a call to the core may take before the client hears 503 (default 15 s). */
  timeoutMs?: number;
  /** METRICS_TOKEN: /metrics for its bearer only; unset, no /metrics on this app. */
  metricsToken?: string;
}

/** The core process's app: Yoga at /graphql, and /v1 calling that same Yoga in process. */
export function createApp(runtime: Runtime, yoga: Yoga, opts: AppOptions = {}): Express {
  const app = baseApp(runtime.logger, { metricsToken: opts.metricsToken });
  app.get("/readyz", async (_req, res) => {
    try {
      await runtime.db.sql.query("SELECT 1");
      res.json({ ok: true, database: runtime.db.kind });
    } catch {
      res.status(503).json({ ok: false, database: runtime.db.kind });
    }
  });
  mountGraphQL(app, yoga);

  // `yoga` serves /graphql over HTTP and the facade's calls in this process: one entry, one budget per key.
  const core = opts.graphqlUrl
    ? createCoreClient({ url: opts.graphqlUrl, facadeSecret: opts.facadeSecret })
    : createCoreClient({ transport: inProcessTransport(yoga, runtime) });
  return finishApp(app, core, opts.extra);
}

/** The /v1 facade alone: no database, no runtime; every answer comes from the core over HTTP. */
export function createFacadeApp(opts: FacadeAppOptions): Express {
  const app = baseApp(opts.logger, { metricsToken: opts.metricsToken });
  const core = createCoreClient({ url: opts.graphqlUrl, facadeSecret: opts.facadeSecret, timeoutMs: opts.timeoutMs });
  const coreReady = new URL("/readyz", opts.graphqlUrl);
  app.get("/readyz", async (_req, res) => {
    try {
      const answer = await fetch(coreReady, { signal: AbortSignal.timeout(2_000) });
      res.status(answer.ok ? 200 : 503).json({ ok: answer.ok, core: answer.ok ? "ready" : "not ready" });
    } catch {
      res.status(503).json({ ok: false, core: "unreachable" });
    }
  });
  return finishApp(app, core);
}

/**
 * What both apps start with: no ETag or 304, request logs and ids, metrics, health. /metrics is served
 * here only to the bearer of `metricsToken` (METRICS_TOKEN); without it, not at all (metrics-endpoint.ts).
 */
function baseApp(logger: Logger, opts: { metricsToken?: string } = {}): Express {
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

/** What both apps end with: docs, /v1, the extra routers, then the 404 and the error handler. */
function finishApp(app: Express, core: CoreClient, extra: express.Router[] = []): Express {
  app.use(docsRouter());
  app.use("/v1", v1Router(core));
  for (const router of extra) app.use(router);
  app.use(() => {
    throw new AppError("route_not_found");
  });
  app.use(errorHandler);
  return app;
}
