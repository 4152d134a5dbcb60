// The facade against a separately deployed core (GRAPHQL_URL), and rate-limit counters shared by
// two instances through Redis (REDIS_URL).
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { buildService, createApp } from "../../server/service.ts";
import { createLogger } from "../../core/shared/logger.ts";
import { op } from "../helpers/http.ts";
import { ADMIN_TOKEN, FACADE_SECRET, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer, makeSubscription } from "../helpers/factories.ts";


async function listen(app: ReturnType<typeof createApp>) {
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("deployment modes", () => {
  it("serves /v1 through a core reached over HTTP (GRAPHQL_URL)", async () => {
    const core = await testService();
    const facade = await listen(createApp(core.runtime, core.yoga, { graphqlUrl: `${core.baseUrl}/graphql`, facadeSecret: FACADE_SECRET }));
    try {
      const t = await newTenant();
      const s = await makeSubscription(t, (await makeCustomer(t)).id);
      const remote = await fetch(`${facade.url}/v1/subscriptions/${s.id}`, { headers: { authorization: `Bearer ${t.readKey}` } });
      const local = await fetch(`${core.baseUrl}/v1/subscriptions/${s.id}`, { headers: { authorization: `Bearer ${t.readKey}` } });
      expect(remote.status).toBe(200);
      expect(await remote.text()).toBe(await local.text());
      const missing = await fetch(`${facade.url}/v1/subscriptions/sub_01ARZ3NDEKTSV4RRFFQ69G5FAV`, { headers: { authorization: `Bearer ${t.readKey}` } });
      expect(missing.status).toBe(404);
      // The core took it for the facade: /v1's rule for the operator token holds over HTTP too.
      const operator = await fetch(`${facade.url}/v1/events`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(operator.status).toBe(401);
      expect(await operator.json()).toEqual({ error: "use a tenant API key (bk_…) on /v1", code: "unauthorized" });
    } finally {
      facade.server.close();
    }
  });

  it.runIf(!!process.env.REDIS_URL)("shares rate-limit counters across instances through Redis", async () => {
    const core = await testService();
    const t = await newTenant();
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 3) { id } }`, { t: t.tenantId });
    const config = { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" };
    const a = await buildService(core.runtime.db, createLogger("silent"), config, { redisUrl: process.env.REDIS_URL });
    const b = await buildService(core.runtime.db, createLogger("silent"), config, { redisUrl: process.env.REDIS_URL });
    const sa = await listen(a.app);
    const sb = await listen(b.app);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const url = i % 2 ? sb.url : sa.url;
        statuses.push((await fetch(`${url}/v1/events`, { headers: { authorization: `Bearer ${t.readKey}` } })).status);
      }
      // 3/s with a 2x burst is 6 per window in all, whichever instance answers.
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    } finally {
      sa.server.close();
      sb.server.close();
    }
  });
});
