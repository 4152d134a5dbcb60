// The HTTP surface of one process: GraphQL (Yoga), the /v1 facade, docs, health and metrics
// (createApp); or the /v1 facade alone in front of a separately deployed core (createFacadeApp).
import express, { type Express, type RequestHandler } from "express";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import { AppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import { createGraphQL, GRAPHQL_BODY_LIMIT, rateLimitsOf, type Yoga } from "../schema/yoga.ts";
import { errorHandler } from "./error-map.ts";
import { createCoreClient, type CoreClient } from "./graphql-client.ts";
import { metrics, registry, requestLogging } from "./observability.ts";
import { docsRouter } from "./openapi/docs.ts";
import { v1Router } from "./v1.ts";

export interface AppOptions {
  /** Reach a separately deployed core over HTTP instead of in-process (with facadeSecret). */
  graphqlUrl?: string;
  /** FACADE_SECRET, shared with that core. */
  facadeSecret?: string;
  /** Rate-limit stores of /graphql (Redis with REDIS_URL); /v1 is counted by the core's. */
  storeFor?: (prefix: string) => Store;
  /** Extra routers mounted before the 404 (hosted pages, demo receiver). */
  extra?: express.Router[];
}

/** What every HTTP surface shares: no ETag or 304, request logs and ids, metrics. */
function baseApp(logger: Logger): Express {
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
  app.get("/metrics", async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return app;
}

function finish(app: Express, core: CoreClient, extra: express.Router[] = []): Express {
  app.use(docsRouter());
  app.use("/v1", v1Router(core));
  for (const router of extra) app.use(router);
  app.use(() => {
    throw new AppError("route_not_found");
  });
  app.use(errorHandler);
  return app;
}

/**
 * /graphql bodies: /v1's 100 kB cap, answered 413 with the contract's body. A declared length over
 * the cap is refused before a byte is read; a chunked body is counted while read and cut at the cap.
 * Either way the connection is closed rather than drained, so the rest is never read. Yoga takes the
 * Buffer as the body (and keeps its own cap as a second line).
 */
function graphqlBodyCap(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    const refuse = () => {
      res.set("connection", "close");
      next(new AppError("payload_too_large"));
    };
    if (Number(req.get("content-length") ?? 0) > GRAPHQL_BODY_LIMIT) return refuse();
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GRAPHQL_BODY_LIMIT) return void chunks.push(chunk);
      req.off("data", onData).off("end", onEnd).pause();
      refuse();
    };
    const onEnd = () => {
      // An empty body stays unread for Yoga (which answers it), not an empty Buffer it would skip.
      if (size > 0) req.body = Buffer.concat(chunks, size);
      next();
    };
    req.on("data", onData).once("end", onEnd).once("error", next);
  };
}

export function createApp(runtime: Runtime, yoga: Yoga, opts: AppOptions = {}): Express {
  const app = baseApp(runtime.logger);
  app.get("/readyz", async (_req, res) => {
    try {
      await runtime.db.sql.query("SELECT 1");
      res.json({ ok: true, database: runtime.db.kind });
    } catch {
      res.status(503).json({ ok: false, database: runtime.db.kind });
    }
  });
  app.use(yoga.graphqlEndpoint, graphqlBodyCap(), yoga as unknown as express.RequestHandler);

  // `yoga` serves /graphql over HTTP; the facade's in-process calls get their own instance without
  // the HTTP body cap (see createGraphQL), sharing its rate-limit counters: one budget per key.
  const core = opts.graphqlUrl
    ? createCoreClient({ url: opts.graphqlUrl, facadeSecret: opts.facadeSecret })
    : createCoreClient({ fetch: createGraphQL(runtime, { inProcess: true, limits: rateLimitsOf(yoga) }).fetch as never });
  return finish(app, core, opts.extra);
}

export interface FacadeAppOptions {
  /** The core's GraphQL endpoint (GRAPHQL_URL). */
  graphqlUrl: string;
  /** FACADE_SECRET, shared with the core: it believes the forwarded client address only with it. */
  facadeSecret: string;
  logger: Logger;
  /** How long a call to the core may take before the client hears 503 (default 15 s). */
  timeoutMs?: number;
}

/** The /v1 facade alone: no database, no runtime; every answer comes from the core over HTTP. */
export function createFacadeApp(opts: FacadeAppOptions): Express {
  const app = baseApp(opts.logger);
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
  return finish(app, core);
}
