// One running service per test run (real HTTP on loopback), on PostgreSQL when DATABASE_URL is set,
// else on an in-memory embedded database.
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createLogger } from "../../core/shared/logger.ts";
import { openDb } from "../../prisma/client.ts";
import { buildService, type Service } from "../../server/service.ts";
import { startWebhookDelivery } from "../../jobs/webhook-delivery.job.ts";

export const ADMIN_TOKEN = "adm_test_operator_token_0123456789";

// Gateway accounts in tests: a fresh credentials key per run (never a committed one), and apiBaseUrl
// allowed (the fakes' loopback addresses). Set in the environment too, for child services (main.ts).
process.env.GATEWAY_CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
process.env.GATEWAY_ALLOW_BASE_URL_OVERRIDE ??= "true";
// The secret the core and the facade alone share: one per run, known to the test service
// (read when it builds /graphql) and to every facade a test starts.
process.env.FACADE_SECRET ??= `fcd_${randomBytes(24).toString("base64url")}`;
export const FACADE_SECRET = process.env.FACADE_SECRET;
/** The test service's METRICS_TOKEN: /metrics answers only its bearer (metricsText). */
export const TEST_METRICS_TOKEN = `mtr_${randomBytes(24).toString("base64url")}`;

export interface TestService extends Service {
  baseUrl: string;
  server: Server;
}

let shared: Promise<TestService> | undefined;
let v1Through: Promise<string> | undefined;

/**
 * Sends the helpers' /v1 calls (call, get, post) to another base URL until reset with undefined: the
 * facade alone in front of this service (test/rest-facade/facade-alone.test.ts runs the contract tests
 * through it). Test files share modules (isolate: false): reset it in afterAll.
 */
export function routeV1Through(baseUrl: Promise<string> | undefined): void {
  v1Through = baseUrl;
}

/** Where /v1 calls go: this service, or the facade routeV1Through named. */
export async function v1BaseUrl(): Promise<string> {
  return v1Through ? await v1Through : (await testService()).baseUrl;
}

export function testService(): Promise<TestService> {
  shared ??= (async () => {
    const db = await openDb({ url: process.env.DATABASE_URL ?? "", pgliteDir: "memory://" });
    const service = await buildService(db, createLogger(process.env.TEST_LOG_LEVEL ?? "silent"), {
      adminToken: ADMIN_TOKEN,
      publicUrl: "http://localhost",
      allowGatewayBaseUrlOverride: true,
    }, { metricsToken: TEST_METRICS_TOKEN });
    // Webhooks are delivered as in production (the other jobs are driven by advanceClock).
    await startWebhookDelivery(service.runtime);
    const server = service.app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const { port } = server.address() as AddressInfo;
    return { ...service, server, baseUrl: `http://127.0.0.1:${port}` };
  })();
  return shared;
}

/** The test service's /metrics text (with its METRICS_TOKEN). */
export async function metricsText(): Promise<string> {
  const res = await fetch(`${(await testService()).baseUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  return res.text();
}
