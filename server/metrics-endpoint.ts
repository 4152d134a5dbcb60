// Who may read /metrics. Its series name routes, statuses, rates and process internals: an operator's
// view, never the public's. METRICS_TOKEN serves it on the public listener to the bearer of that token
// (compared in constant time); METRICS_PORT serves it, without a token, on a listener of its own bound
// to 127.0.0.1 (a scraper on the host, or a sidecar). With neither, nobody can read it: the public
// listener answers /metrics like any unknown route.
import http from "node:http";
import express, { type RequestHandler } from "express";
import { registry } from "../core/shared/metrics.ts";
import { AppError } from "../core/shared/errors.ts";
import { constantTimeEqual, operatorTokenWeakness } from "../core/shared/secrets.ts";

export interface MetricsExposure {
  /** METRICS_TOKEN: /metrics on the public listener, for `Authorization: Bearer <token>` only. */
  token?: string;
  /** METRICS_PORT: /metrics on 127.0.0.1:<port>, a listener of its own. */
  port?: number;
}

/** METRICS_TOKEN and METRICS_PORT (empty is unset); throws an Error saying why a value is unusable. */
export function metricsExposureFromEnv(env: NodeJS.ProcessEnv = process.env): MetricsExposure {
  const out: MetricsExposure = {};
  if (env.METRICS_TOKEN) {
    // It guards what the operator token's holder sees of traffic: the same floor.
    const weakness = operatorTokenWeakness(env.METRICS_TOKEN);
    if (weakness) throw new Error(`METRICS_TOKEN is too weak: ${weakness} (for example: openssl rand -base64 32)`);
    out.token = env.METRICS_TOKEN;
  }
  if (env.METRICS_PORT) {
    const port = Number(env.METRICS_PORT);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`METRICS_PORT is not a TCP port: ${env.METRICS_PORT}`);
    out.port = port;
  }
  return out;
}

const serve: RequestHandler = async (_req, res) => {
  res.type(registry.contentType).send(await registry.metrics());
};

/** GET /metrics on the public listener: only with METRICS_TOKEN, and only for its bearer. */
export function publicMetricsRoute(token: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (!token) return next(new AppError("route_not_found"));
    const given = /^Bearer (.+)$/i.exec(req.get("authorization") ?? "")?.[1] ?? "";
    if (!given || !constantTimeEqual(given, token)) {
      res.set("WWW-Authenticate", 'Bearer realm="metrics"');
      return next(new AppError("unauthorized", { error: "a valid METRICS_TOKEN bearer token is required" }));
    }
    return serve(req, res, next);
  };
}

/** /metrics alone on 127.0.0.1:<port>: not reachable from other hosts, so no token is asked. */
export async function startMetricsListener(port: number): Promise<http.Server> {
  const app = express();
  app.disable("x-powered-by");
  app.get("/metrics", serve);
  app.use((_req, res) => {
    const e = new AppError("route_not_found");
    res.status(e.status).json(e.body);
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}

/** The start banner's line: where /metrics is, or that it is not served. */
export function metricsBannerLine(exposure: MetricsExposure, publicUrl: string | undefined): string {
  const where: string[] = [];
  if (exposure.port) where.push(`http://127.0.0.1:${exposure.port}/metrics`);
  if (exposure.token && publicUrl) where.push(`${publicUrl}/metrics (Authorization: Bearer <METRICS_TOKEN>)`);
  return `  metrics:    ${where.length ? where.join(", ") : "not served (set METRICS_TOKEN or METRICS_PORT)"}`;
}
