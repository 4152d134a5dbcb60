// advanceClock, simulatePixPayment and simulateChargeback: sandbox only, and strict about input.
import { describe, expect, it } from "vitest";
import { advanceClock, subscribe, subscription } from "../helpers/billing.ts";
import { gql } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

const ADVANCE = `mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { steps } }`;

describe("sandbox mutations", () => {
  it("advanceClock is refused for LIVE tenants and for a date before the tenant's clock", async () => {
    const live = await newTenant({ mode: "LIVE" });
    const refused = await gql(ADVANCE, { t: live.tenantId, to: "2030-01-01T00:00:00Z" });
    expect(refused.errors?.[0]?.extensions?.code).toBe("sandbox_only");

    const t = await newTenant();
    await advanceClock(t, "2027-01-01T00:00:00.000Z");
    const back = await gql(ADVANCE, { t: t.tenantId, to: "2026-12-31T00:00:00Z" });
    expect(back.errors?.[0]?.extensions?.code).toBe("invalid_argument");
  });

  it("a tenant's own write key may move its clock; a read key may not; another tenant's id is not found", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const ok = await gql(ADVANCE, { t: t.tenantId, to: "2027-01-01T00:00:00Z" }, t.writeKey);
    expect(ok.errors).toBeUndefined();
    const read = await gql(ADVANCE, { t: t.tenantId, to: "2027-01-02T00:00:00Z" }, t.readKey);
    expect(read.errors?.[0]?.extensions?.code).toBe("insufficient_scope");
    const foreign = await gql(ADVANCE, { t: other.tenantId, to: "2027-01-02T00:00:00Z" }, t.writeKey);
    expect(foreign.errors?.[0]?.extensions?.code).toBe("not_found");
  });

  it("simulatePixPayment refuses a payload that is not a BR Code and one nobody issued", async () => {
    const bad = await gql(`mutation { simulatePixPayment(copyPaste: "not a br code") { id } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const tampered = sub.pix!.copy_paste.replace("49.90", "00.01");
    const unknown = await gql(`mutation($c: String!) { simulatePixPayment(copyPaste: $c) { id } }`, { c: tampered });
    expect(unknown.errors?.[0]?.extensions?.code).toMatch(/invalid_argument|not_found/);
    expect((await subscription(t, sub.subscription_id)).status).toBe("pending_first_payment");
  });

  it("simulateChargeback marks a paid payment chargedback and refuses anything else", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    const paymentId = (await subscription(t, sub.subscription_id)).last_payment.payment_id;
    const done = await gql(`mutation($p: ID!) { simulateChargeback(paymentId: $p) { id status } }`, { p: paymentId });
    expect(done.data).toEqual({ simulateChargeback: { id: paymentId, status: "CHARGEDBACK" } });
    const twice = await gql(`mutation($p: ID!) { simulateChargeback(paymentId: $p) { id } }`, { p: paymentId });
    expect(twice.errors?.[0]?.extensions?.code).toBe("conflict");
    const missing = await gql(`mutation { simulateChargeback(paymentId: "pay_01ARZ3NDEKTSV4RRFFQ69G5FAV") { id } }`);
    expect(missing.errors?.[0]?.extensions?.code).toBe("not_found");
  });
});
