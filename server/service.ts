// The core process's parts around a database: runtime, GraphQL core (Yoga) and its HTTP app with every
// router it serves (createApp). Used by core-process.ts, the tests and the benchmarks alike.
import type { Express, Router } from "express";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import type { Db } from "../prisma/client.ts";
import { createRuntime } from "../core/create-runtime.ts";
import type { Runtime, RuntimeConfig } from "../core/runtime.ts";
import { createCoreClient } from "../rest-facade/core-client.ts";
import { checkoutRouter } from "../web/hosted/checkout-router.ts";
import { faviconRouter } from "../web/ui/favicon.ts";
import { payRouter } from "../web/hosted/pay-router.ts";
import { pixRouter } from "../web/hosted/pix-router.ts";
import { panelRouter } from "../web/panel/panel-router.ts";
import { inProcessFetch } from "../schema/in-process-entry.ts";
import { createGraphQL, type Yoga } from "../schema/yoga.ts";
import { baseApp, finishApp } from "./app.ts";
import { demoReceiverRouter } from "./demo-receiver.ts";
import { gatewayWebhooksRouter } from "./gateway-webhooks.ts";
import { mountGraphQL } from "./graphql-mount.ts";

export interface Service {
  runtime: Runtime;
  yoga: Yoga;
  app: Express;
}

export async function buildService(
  db: Db,
  logger: Logger,
  config: RuntimeConfig,
  opts: { graphqlUrl?: string; redisUrl?: string; metricsToken?: string } = {},
): Promise<Service> {
  const runtime = await createRuntime(db, logger, config);
  const storeFor = opts.redisUrl ? await redisStores(opts.redisUrl) : undefined;
  // /graphql's per-key and failed-authentication counters share /v1's stores (schema/graphql-rate-limit.ts).
  const yoga = createGraphQL(runtime, { storeFor });
  // Hosted pages and their limits (attempt-limits.ts), the demo receiver, the pages' icon and gateway webhooks (raw body).
  // The panel is a GraphQL client of this same core, in process (web/panel/panel-router.ts).
  const panel = panelRouter({ core: createCoreClient({ inProcess: inProcessFetch(yoga, runtime) }), publicUrl: config.publicUrl, storeFor });
  const hosted = [checkoutRouter(runtime, { storeFor }), payRouter(runtime, { storeFor }), pixRouter(runtime), panel, demoReceiverRouter(runtime, { storeFor }), faviconRouter(), gatewayWebhooksRouter(runtime, { storeFor })];
  const app = createApp(runtime, yoga, { graphqlUrl: opts.graphqlUrl, storeFor, extra: hosted, metricsToken: opts.metricsToken });
  return { runtime, yoga, app };
}

export interface AppOptions {
  /** Reach a separately deployed core over HTTP instead of in-process (with facadeSecret). */
  graphqlUrl?: string;
  /** FACADE_SECRET, shared with that core. */
  facadeSecret?: string;
  /** Rate-limit stores of /graphql (Redis with REDIS_URL); /v1 is counted by the core's. */
  storeFor?: (prefix: string) => Store;
  /** Extra routers mounted before the 404 (hosted pages, demo receiver). */
  extra?: Router[];
  /** METRICS_TOKEN: /metrics on this app for its bearer only; unset, this app serves no /metrics. */
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
    : createCoreClient({ inProcess: inProcessFetch(yoga, runtime) });
  return finishApp(app, core, opts.extra);
}

/** Shared rate-limit counters across instances (REDIS_URL). */
async function redisStores(url: string): Promise<(prefix: string) => Store> {
  const { createClient } = await import("redis");
  const { RedisStore } = await import("rate-limit-redis");
  const client = createClient({ url });
  await client.connect();
  return (prefix) => new RedisStore({ prefix, sendCommand: (...args: string[]) => client.sendCommand(args) });
}
