// The built-in demo receiver (the demo tenant's endpoint): it verifies what it is sent and refuses
// what it cannot verify.
import { describe, expect, it } from "vitest";
import { subscribe } from "../helpers/billing.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { addEndpoint, deliveries } from "../helpers/webhook-receiver.ts";

describe("demo receiver", () => {
  it("accepts signed deliveries and refuses forged ones", async () => {
    const { baseUrl } = await testService();
    const t = await newTenant();
    await addEndpoint(t, `${baseUrl}/demo/webhooks`);
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveries(t)).map((d) => `${d.status}:${d.lastStatusCode}`)).toEqual(["DELIVERED:204", "DELIVERED:204"]);

    const body = JSON.stringify({ id: "evt_x", type: "invoice.paid", created_at: new Date().toISOString(), tenant_id: t.tenantId, data: {} });
    const ts = Math.floor(Date.now() / 1000);
    const forged = await fetch(`${baseUrl}/demo/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-billing-signature": `ts=${ts},v1=${"0".repeat(64)}` },
      body,
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: "signature does not verify" });
  });
});
