// The HTTP surface of one process: GraphQL (Yoga), the /v1 facade, docs, health and metrics.
import express, { type Express, type RequestHandler } from "express";
import type { Store } from "express-rate-limit";
import { AppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import { createGraphQL, GRAPHQL_BODY_LIMIT, type Yoga } from "../schema/yoga.ts";
import { errorHandler } from "./error-map.ts";
import { createCoreClient } from "./graphql-client.ts";
import { metrics, registry, requestLogging } from "./observability.ts";
import { docsRouter } from "./openapi/docs.ts";
import { v1Router } from "./v1.ts";

export interface AppOptions {
  /** Reach a separately deployed core over HTTP instead of in-process. */
  graphqlUrl?: string;
  storeFor?: (prefix: string) => Store;
  /** Extra routers mounted before the 404 (hosted pages, demo receiver). */
  extra?: express.Router[];
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
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);
  // Answers are live state (entitlements, balances): never a 304 against a client's cached copy (not
  // even for `If-None-Match: *`, which Express would honour without any ETag), and no SHA-1 of every
  // body to offer one.
  app.set("etag", false);
  Object.defineProperty(app.request, "fresh", { get: () => false, configurable: true });
  app.use(requestLogging(runtime.logger));
  app.use(metrics);

  app.get("/healthz", (_req, res) => void res.json({ ok: true }));
  app.get("/readyz", async (_req, res) => {
    try {
      await runtime.db.sql.query("SELECT 1");
      res.json({ ok: true, database: runtime.db.kind });
    } catch {
      res.status(503).json({ ok: false, database: runtime.db.kind });
    }
  });
  app.get("/metrics", async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });

  app.use(yoga.graphqlEndpoint, graphqlBodyCap(), yoga as unknown as express.RequestHandler);
  app.use(docsRouter());

  // `yoga` serves /graphql over HTTP; the facade's in-process calls get their own instance without
  // the HTTP body cap (see createGraphQL).
  const core = createCoreClient(opts.graphqlUrl ? { url: opts.graphqlUrl } : { fetch: createGraphQL(runtime, { inProcess: true }).fetch as never });
  app.use("/v1", v1Router(runtime, core, { storeFor: opts.storeFor }));
  for (const router of opts.extra ?? []) app.use(router);

  app.use(() => {
    throw new AppError("route_not_found");
  });
  app.use(errorHandler);
  return app;
}
