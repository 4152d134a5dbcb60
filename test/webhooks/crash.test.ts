// kill -9 while a delivery is on the wire: nothing is lost. The killed process held the delivery's
// lease; when it runs out, the restarted process (or any other instance on the same database)
// sends it again. Duplicates are only what at-least-once allows: the attempt cut by the crash.
import { afterAll, describe, expect, it } from "vitest";
import { CPF } from "../helpers/billing.ts";
import { CHILD_ADMIN_TOKEN, childDataDir, freePort, scratchPgDatabase, startChildService, type ChildService } from "../helpers/child-service.ts";
import { Receiver } from "../helpers/webhook-receiver.ts";

interface Instance {
  child: ChildService;
  base: string;
  gql(query: string, variables?: Record<string, unknown>, key?: string): Promise<any>;
}

/**
 * The instances get a database of their own: PGlite in a data directory kept across the restart, or
 * a scratch PostgreSQL database on the test server (the suite's own service would otherwise deliver for them).
 */
async function startInstance(dataDir: string, port: number, databaseUrl: string): Promise<Instance> {
  const child = await startChildService({ databaseUrl, port, dataDir, env: { WEBHOOK_LEASE_MS: "1500" } });
  children.push(child);
  const base = child.baseUrl;
  const gql = async (query: string, variables: Record<string, unknown> = {}, key = CHILD_ADMIN_TOKEN) => {
    const res = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  return { child, base, gql };
}

const children: ChildService[] = [];
afterAll(async () => {
  for (const c of children) await c.kill();
});

describe("crash while sending", () => {
  it("a delivery cut by kill -9 is sent again after restart; every event arrives", { timeout: 180_000 }, async () => {
    const dir = childDataDir("billing-crash-");
    const port = await freePort();
    const db = process.env.DATABASE_URL ? await scratchPgDatabase("billing_crash") : { url: "", drop: async () => undefined };
    const rcv = await Receiver.start();
    rcv.answer = (_r, nth) => (nth === 1 ? "hang" : { status: 200 });
    try {
      const a = await startInstance(dir.dir, port, db.url);
      const { createTenant } = await a.gql(`mutation { createTenant(name: "crash", mode: SANDBOX) { id } }`);
      const t = createTenant.id as string;
      const { createApiKey } = await a.gql(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: READ) { key } }`, { t });
      await a.gql(`mutation($t: ID!, $u: String!) { createWebhookEndpoint(tenantId: $t, url: $u) { id } }`, { t, u: rcv.url });
      const { createProduct } = await a.gql(`mutation($t: ID!) { createProduct(tenantId: $t, name: "App") { id } }`, { t });
      const { createPlan } = await a.gql(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "Pro", entitlements: {seats: 1}) { id } }`, {
        t,
        p: createProduct.id,
      });
      const { createOffer } = await a.gql(
        `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "Pro", interval: MONTH, priceCents: 4990, currency: "brl",
           gateway: "sandbox", collectionMethods: [CARD_AUTO], trialDays: 0) { id } }`,
        { t, p: createPlan.id },
      );
      const checkout = await fetch(`${a.base}/checkout/${createOffer.id}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          external_id: "crash-1", name: "Maria Silva", email: "crash-1@example.com", phone: "11987654321", doc: CPF, method: "card",
          card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2035", card_cvc: "123",
        }),
      });
      expect(checkout.status).toBe(201);

      await rcv.waitFor((rs) => rs.length >= 1);
      const cut = rcv.requests[0]!.body.id as string;
      await a.child.kill(); // SIGKILL: the first delivery is on the wire, unanswered

      const b = await startInstance(dir.dir, port, db.url);
      const events = await fetch(`${b.base}/v1/events`, { headers: { authorization: `Bearer ${createApiKey.key}` } }).then((r) => r.json());
      const ids: string[] = events.results.map((e: { id: string }) => e.id);
      expect(ids).toHaveLength(2);
      expect(ids).toContain(cut);
      await rcv.waitFor((rs) => ids.every((id) => rs.some((r) => r.body?.id === id && r.answered === 200)), 30_000);
      for (const id of ids) expect(rcv.of(id).length).toBeLessThanOrEqual(2); // the cut attempt, then its resend
      expect(rcv.of(cut).length).toBe(2);

      const statuses = async () =>
        (await b.gql(`query($t: ID!) { webhookDeliveries(tenantId: $t) { edges { node { status } } } }`, { t })).webhookDeliveries.edges.map((e: any) => e.node.status);
      await expect.poll(statuses).toEqual(["DELIVERED", "DELIVERED"]);
      await b.child.stop();
    } finally {
      await rcv.stop();
      await db.drop();
      dir.remove();
    }
  });
});
