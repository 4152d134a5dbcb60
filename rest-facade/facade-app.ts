// The /v1 facade alone, in front of a separately deployed core (GRAPHQL_URL): no database, no
// runtime, no schema; every answer comes from the core over HTTP (core-client.ts).
import type { Express } from "express";
import type { Logger } from "pino";
import { baseApp, finishApp } from "./app-parts.ts";
import { createCoreClient } from "./core-client.ts";

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
