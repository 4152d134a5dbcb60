// The HTTP surface of one process: GraphQL (Yoga), the /v1 facade, docs, health and metrics. The
// facade alone, in front of a separately deployed core, is facade-app.ts.
import express, { type Express, type RequestHandler } from "express";
import type { Store } from "express-rate-limit";
import { AppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import { inProcessFetch } from "../schema/in-process-entry.ts";
import { GRAPHQL_BODY_LIMIT, type Yoga } from "../schema/yoga.ts";
import { baseApp, finishApp } from "./app-parts.ts";
import { createCoreClient } from "./core-client.ts";

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
  const app = baseApp(runtime.logger, { metricsToken: opts.metricsToken });
  app.get("/readyz", async (_req, res) => {
    try {
      await runtime.db.sql.query("SELECT 1");
      res.json({ ok: true, database: runtime.db.kind });
    } catch {
      res.status(503).json({ ok: false, database: runtime.db.kind });
    }
  });
  app.use(yoga.graphqlEndpoint, graphqlBodyCap(), yoga as unknown as express.RequestHandler);

  // `yoga` serves /graphql over HTTP and the facade's calls in this process: one entry, one budget per key.
  const core = opts.graphqlUrl
    ? createCoreClient({ url: opts.graphqlUrl, facadeSecret: opts.facadeSecret })
    : createCoreClient({ inProcess: inProcessFetch(yoga, runtime) });
  return finishApp(app, core, opts.extra);
}
