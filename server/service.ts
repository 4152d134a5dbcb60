// Builds the core process's parts around a database: runtime, GraphQL core and the HTTP app with every
// router it serves. Used by server/core-process.ts, the tests and the benchmarks alike.
import type { Express } from "express";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import type { Db } from "../prisma/client.ts";
import { createRuntime, type Runtime, type RuntimeConfig } from "../core/runtime.ts";
import { createGraphQL, type Yoga } from "../schema/yoga.ts";
import { checkoutRouter } from "../rest-facade/hosted/checkout-router.ts";
import { faviconRouter } from "../rest-facade/hosted/favicon.ts";
import { payRouter } from "../rest-facade/hosted/pay-router.ts";
import { createApp } from "./app.ts";
import { demoReceiverRouter } from "./demo-receiver.ts";
import { gatewayWebhooksRouter } from "./gateway-webhooks.ts";

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
  const hosted = [checkoutRouter(runtime, { storeFor }), payRouter(runtime, { storeFor }), demoReceiverRouter(runtime, { storeFor }), faviconRouter(), gatewayWebhooksRouter(runtime, { storeFor })];
  const app = createApp(runtime, yoga, { graphqlUrl: opts.graphqlUrl, storeFor, extra: hosted, metricsToken: opts.metricsToken });
  return { runtime, yoga, app };
}

/** Shared rate-limit counters across instances (REDIS_URL). */
async function redisStores(url: string): Promise<(prefix: string) => Store> {
  const { createClient } = await import("redis");
  const { RedisStore } = await import("rate-limit-redis");
  const client = createClient({ url });
  await client.connect();
  return (prefix) => new RedisStore({ prefix, sendCommand: (...args: string[]) => client.sendCommand(args) });
}
