// What a checkout leaves behind: a coupon that discounts exactly its cycles through the billing run,
// and refusals (declined card, bad coupon, external_id of another e-mail) that leave nothing at all.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, checkout, EventLog, subscribe, subscription } from "../helpers/billing.ts";
import { get, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

async function coupon(t: Awaited<ReturnType<typeof newTenant>>, code: string, opts: { percentOff?: number; cycles?: number; maxRedemptions?: number }) {
  await op(
    `mutation($t: ID!, $c: String!, $p: Int, $n: Int, $m: Int) { createCoupon(tenantId: $t, code: $c, percentOff: $p, cycles: $n, maxRedemptions: $m) { id } }`,
    { t: t.tenantId, c: code, p: opts.percentOff ?? 10, n: opts.cycles ?? null, m: opts.maxRedemptions ?? null },
  );
}

describe("checkout outcomes", () => {
  it("a 10% coupon for 3 cycles discounts the first three charges only", async () => {
    const t = await newTenant();
    await coupon(t, "DEZ3", { percentOff: 10, cycles: 3 });
    await advanceClock(t, "2027-01-10T10:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { coupon: "DEZ3" });
    const amounts: number[] = [];
    const next: number[] = [];
    const log = new EventLog(t);
    for (const to of ["2027-01-10T10:00:00.000Z", "2027-02-10T10:00:00.000Z", "2027-03-10T10:00:00.000Z", "2027-04-10T10:00:00.000Z", "2027-05-10T10:00:00.000Z"]) {
      await log.advance(to);
      const s = await subscription(t, sub.subscription_id);
      amounts.push(s.last_payment.amount_cents);
      next.push(s.next_charge_amount_cents);
    }
    expect(amounts).toEqual([4491, 4491, 4491, 4990, 4990]);
    expect(next).toEqual([4491, 4491, 4990, 4990, 4990]);
  });

  it.each([
    ["a declined card", { card_number: CARDS.declined }, "card_number"],
    ["insufficient funds", { card_number: CARDS.insufficient }, "card_number"],
    ["an unknown coupon", { coupon: "NAOEXISTE" }, "coupon"],
    ["a wrong CPF", { doc: "52998224724" }, "doc"],
    ["a landline", { phone: "1132654321" }, "phone"],
  ])("%s is refused with a field error and leaves nothing behind", async (_name, fields, field) => {
    const t = await newTenant();
    const external = `ext-refused-${Math.random().toString(36).slice(2, 8)}`;
    const answer = await checkout(t.monthlyOfferId, { external_id: external, email: `${external}@example.com`, ...fields });
    expect(answer.status).toBe(422);
    expect(answer.body.field).toBe(field);
    expect(typeof answer.body.error).toBe("string");
    expect(JSON.stringify(answer.body)).not.toMatch(/4000000000|4242424242/);
    expect((await get(`/v1/customers/${external}/subscriptions`, t.readKey)).status).toBe(404);
    expect((await get(`/v1/subscriptions`, t.readKey)).body.results).toEqual([]);
  });

  it("an exhausted coupon is refused; the last unit goes to one checkout only", async () => {
    const t = await newTenant();
    await coupon(t, "UMA", { maxRedemptions: 1 });
    await subscribe(t.monthlyOfferId, { coupon: "UMA" });
    const second = await checkout(t.monthlyOfferId, { coupon: "UMA" });
    expect(second.status).toBe(422);
    expect(second.body).toMatchObject({ field: "coupon", error: "cupom inválido ou indisponível" });
    expect((await get(`/v1/subscriptions`, t.readKey)).body.results).toHaveLength(1);
  });

  it("an external_id owned by another e-mail is refused; the same customer may subscribe again", async () => {
    const t = await newTenant();
    const first = await subscribe(t.monthlyOfferId, { external_id: "cliente-42", email: "ana@example.com" });
    const clash = await checkout(t.monthlyOfferId, { external_id: "cliente-42", email: "outra@example.com" });
    expect(clash.status).toBe(422);
    expect(clash.body.field).toBe("external_id");
    const again = await subscribe(t.yearlyOfferId, { external_id: "cliente-42", email: "ana@example.com" });
    const list = await get(`/v1/customers/cliente-42/subscriptions`, t.readKey);
    expect(list.body.subscriptions.map((s: any) => s.subscription_id).sort()).toEqual([first.subscription_id, again.subscription_id].sort());
  });

  it("without external_id the customer's own cus_ id becomes its external id", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId, { external_id: "" });
    const s = await subscription(t, sub.subscription_id);
    expect(s.customer.external_id).toBe(s.customer.id);
    expect(s.customer.id).toMatch(/^cus_/);
  });
});
