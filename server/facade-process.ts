// The facade-alone process (`GRAPHQL_URL=https://core.internal/graphql FACADE_SECRET=… npm start`) and its
// app: /v1 translated into GraphQL calls to a separately deployed core, with no database handle, no
// runtime, no schema and no jobs. The core authenticates, limits, checks scope and account mode and keeps
// Idempotency-Key answers; the facade forwards the caller's headers with FACADE_SECRET, the secret
// that makes the core believe the client address it forwards (and nobody else's X-Facade-* headers).
import type { Express } from "express";
import type { Logger } from "pino";
import { createLogger } from "../core/shared/logger.ts";
import { operatorTokenWeakness, prepareTokenEstimatesApart } from "../core/shared/secrets.ts";
import { createCoreClient } from "../rest-facade/core-client.ts";
import { baseApp, finishApp } from "./app.ts";
import { metricsBannerLine, metricsExposureFromEnv, startMetricsListener, type MetricsExposure } from "./metrics-endpoint.ts";

export async function startFacade(graphqlUrl: string): Promise<void> {
  const secret = process.env.FACADE_SECRET ?? "";
  // Without it the core would take the facade for an ordinary client: no /v1 semantics, and every
  // failed key of every /v1 client counted against the facade's own address.
  // Estimated in a process of its own: the dictionaries stay out of this one.
  prepareTokenEstimatesApart([secret, process.env.METRICS_TOKEN ?? ""]);
  const weakness = secret ? operatorTokenWeakness(secret) : "it is not set";
  if (weakness) {
    console.error(`refusing to start the facade: FACADE_SECRET (shared with the core at GRAPHQL_URL) is unusable: ${weakness}.\n  Set the same random value of 32 or more characters on the core and the facade (for example: openssl rand -base64 32).`);
    process.exit(1);
  }
  let url: URL;
  try {
    url = new URL(graphqlUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    console.error(`refusing to start the facade: GRAPHQL_URL is not an http(s) URL: ${graphqlUrl}`);
    process.exit(1);
  }
  let metricsExposure: MetricsExposure;
  try {
    metricsExposure = metricsExposureFromEnv();
  } catch (err) {
    console.error(`refusing to start the facade: ${(err as Error).message}`);
    process.exit(1);
  }
  const logger = createLogger();
  // The facade alone opens nothing of the core's: say so rather than let a setting look obeyed.
  if (process.env.DATABASE_URL) logger.warn("GRAPHQL_URL is set: this process is the /v1 facade alone and ignores DATABASE_URL");
  if (process.argv.includes("--role")) logger.warn("GRAPHQL_URL is set: --role is ignored (the facade runs no jobs)");
  const port = Number(process.env.PORT ?? 3000);
  const timeout = Number(process.env.GRAPHQL_TIMEOUT_MS ?? "");
  const app = createFacadeApp({ graphqlUrl: url.toString(), facadeSecret: secret, logger, timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined, metricsToken: metricsExposure.token });
  const server = app.listen(port);
  const metricsServer = metricsExposure.port ? await startMetricsListener(metricsExposure.port) : undefined;
  const shutdown = () => {
    metricsServer?.close();
    server.close(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  console.log([`billing service (facade) on ${publicUrl}/v1`, `  core:       ${url.origin}${url.pathname}`, `  API docs:   ${publicUrl}/docs`, metricsBannerLine(metricsExposure, publicUrl)].join("\n"));
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
