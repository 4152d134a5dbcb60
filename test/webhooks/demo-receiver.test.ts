// The built-in demo receiver (the demo tenant's endpoint): it verifies what it is sent and refuses
// what it cannot verify. It answers only for the demo tenant, which the shared test service does not
// seed on its own: the test seeds it (or finds it, seeded by an earlier file) and points its endpoint
// at this service.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEMO_RECEIVER_PATH, DEMO_TENANT_NAME, forgetDemoReceiverKeys } from "../../core/demo/receive-demo-webhook.ts";
import { seedDemoTenant } from "../../core/demo/seed-demo-tenant.ts";
import { subscribe } from "../helpers/billing.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { addEndpoint } from "../helpers/webhook-receiver.ts";

async function demoTenant() {
  const { runtime, baseUrl } = await testService();
  const prisma = runtime.db.prisma;
  await seedDemoTenant(runtime); // null when an earlier file seeded it
  const tenant = await prisma.tenant.findFirstOrThrow({ where: { name: DEMO_TENANT_NAME } });
  await prisma.webhookEndpoint.updateMany({ where: { tenantId: tenant.id }, data: { url: `${baseUrl}${DEMO_RECEIVER_PATH}` } });
  forgetDemoReceiverKeys(prisma);
  const offer = await prisma.offer.findFirstOrThrow({ where: { tenantId: tenant.id, interval: "MONTH" } });
  return { tenantId: tenant.id, monthlyOfferId: offer.id };
}

function signed(secret: string, body: string) {
  const ts = Math.floor(Date.now() / 1000);
  return `ts=${ts},v1=${createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex")}`;
}

describe("demo receiver", () => {
  it("accepts signed deliveries and refuses forged ones", async () => {
    const { baseUrl, runtime } = await testService();
    const demo = await demoTenant();
    const all = () => runtime.db.prisma.webhookDelivery.findMany({ where: { tenantId: demo.tenantId }, select: { id: true, status: true, lastStatusCode: true } });
    const seen = new Set((await all()).map((d) => d.id));
    await subscribe(demo.monthlyOfferId);
    const fresh = async () => (await all()).filter((d) => !seen.has(d.id));
    await expect.poll(async () => (await fresh()).map((d) => `${d.status}:${d.lastStatusCode}`)).toEqual(["DELIVERED:204", "DELIVERED:204"]);

    const body = JSON.stringify({ id: "evt_x", type: "invoice.paid", created_at: new Date().toISOString(), tenant_id: demo.tenantId, data: {} });
    const ts = Math.floor(Date.now() / 1000);
    const forged = await fetch(`${baseUrl}/demo/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-billing-signature": `ts=${ts},v1=${"0".repeat(64)}` },
      body,
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: "signature does not verify" });
  });

  it("verifies only the demo tenant's deliveries: another tenant's endpoint on the same path is refused", async () => {
    const { baseUrl } = await testService();
    await demoTenant();
    const t = await newTenant();
    const endpoint = await addEndpoint(t, `${baseUrl}/demo/webhooks`);
    const body = JSON.stringify({ id: "evt_y", type: "invoice.paid", created_at: new Date().toISOString(), tenant_id: t.tenantId, data: {} });
    const res = await fetch(`${baseUrl}/demo/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-billing-signature": signed(endpoint.secret, body) },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "signature does not verify" });
  });
});
