// POST /gateways/{gateway_account_id}/webhooks is unauthenticated by nature: an address gets 30 refused
// notices a minute (forged, stale, replayed, unknown account, too large); past them, whatever it posts
// is 429 before any account lookup or verification (the provider retries later). A notice that
// verifies never spends the budget, and other addresses are not affected.
// Each test posts from loopback addresses of its own (127.0.0.x: Linux routes all of 127/8 to lo),
// because the suite shares one service.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REFUSED_NOTICES_PER_MINUTE } from "../../server/gateway-webhooks.ts";
import { issuePixCharge } from "../../core/billing/issue-pix-charge.ts";
import { ensureCycleInvoice } from "../../core/billing/ensure-cycle-invoice.ts";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { makeCustomer, makeSubscription } from "../helpers/factories.ts";
import type { TestService } from "../helpers/service.ts";
import { startStripeTestbed, stripeOffer } from "../helpers/stripe.ts";
import { sendFrom } from "../security/hosted-client.ts";

let fake: FakeStripe;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());

const postFrom = (address: string, accountId: string, signed: { rawBody: string; headers: Record<string, string> }) =>
  sendFrom(address, svc.baseUrl, `/gateways/${accountId}/webhooks`, signed.rawBody, signed.headers);

const forged = (event: object) => fake.signed(event, { secret: `whsec_${randomBytes(16).toString("hex")}` });
const someEvent = () => ({ id: `evt_${randomBytes(8).toString("hex")}`, object: "event", type: "customer.created", created: Math.floor(Date.now() / 1000), livemode: false, data: { object: { id: "cus_x" } } });

/** A Pix of a Stripe subscription paid at the fake, and the genuine payment_intent.succeeded for it. */
async function paidPixNotice(s: Awaited<ReturnType<typeof stripeOffer>>) {
  const now = svc.runtime.wallClock.now();
  const customer = await makeCustomer(s.t);
  const sub = await makeSubscription(s.t, customer.id, { offerId: s.offerId });
  const invoice = (await ensureCycleInvoice(svc.runtime, { tenantId: s.t.tenantId, subscriptionId: sub.id, periodStart: sub.currentPeriodEnd!, anchorDay: 1, now }))!;
  const pix = await issuePixCharge(svc.runtime, { tenantId: s.t.tenantId, invoiceId: invoice.id, expiresAt: new Date(now.getTime() + 3_600_000), now });
  const payment = await svc.runtime.db.prisma.payment.findUniqueOrThrow({ where: { id: pix.paymentId } });
  fake.payPix(payment.gatewayChargeId);
  return { payment, event: fake.lastEvent("payment_intent.succeeded")! };
}

describe("refused gateway notices are limited per address", () => {
  it(`${REFUSED_NOTICES_PER_MINUTE} refusals a minute, then 429 with Retry-After; another address is untouched`, async () => {
    const s = await stripeOffer(fake);
    const from = "127.0.0.71";
    const statuses: number[] = [];
    for (let i = 0; i < REFUSED_NOTICES_PER_MINUTE; i++) statuses.push((await postFrom(from, s.accountId, forged(someEvent()))).status);
    expect(statuses).toEqual(Array(REFUSED_NOTICES_PER_MINUTE).fill(400));
    const over = await postFrom(from, s.accountId, forged(someEvent()));
    expect(over.status).toBe(429);
    expect(over.json()).toMatchObject({ code: "rate_limited" });
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(60);
    // An unknown account and an oversized body count too, and are 429 now.
    expect((await postFrom(from, "gwa_doesnotexist000000", fake.signed(someEvent()))).status).toBe(429);

    // Another address has its own budget.
    expect((await postFrom("127.0.0.72", s.accountId, forged(someEvent()))).status).toBe(400);
  });

  it("an address over its budget is answered 429 before any lookup or verification, even for a genuine notice", async () => {
    const s = await stripeOffer(fake);
    const from = "127.0.0.75";
    for (let i = 0; i < REFUSED_NOTICES_PER_MINUTE; i++) expect((await postFrom(from, s.accountId, forged(someEvent()))).status).toBe(400);
    const { payment, event } = await paidPixNotice(s);
    const warn = vi.spyOn(svc.runtime.logger, "warn");
    const lookups = vi.spyOn(svc.runtime.db.prisma.gatewayAccount, "findUnique");
    try {
      // A forged notice is not verified (no refusal logged), nor its account looked up.
      const over = await postFrom(from, s.accountId, forged(someEvent()));
      expect(over.status).toBe(429);
      expect(over.json()).toMatchObject({ code: "rate_limited" });
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(60);
      expect(over.headers["ratelimit-remaining"]).toBe("0");
      // Stripe's genuine notice from that address waits too: nothing applied, nothing recorded.
      expect((await postFrom(from, s.accountId, fake.signed(event))).status).toBe(429);
      expect(warn.mock.calls.filter((c) => c.includes("gateway webhook refused"))).toEqual([]);
      expect(lookups).not.toHaveBeenCalled();
      expect((await svc.runtime.db.prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).not.toBe("PAID");
      expect(await svc.runtime.db.prisma.gatewayNotification.count({ where: { gatewayAccountId: s.accountId } })).toBe(0);
      // The same notice from an address within its budget (Stripe's retry, in production a minute later) applies.
      lookups.mockClear();
      const retried = await postFrom("127.0.0.76", s.accountId, fake.signed(event));
      expect(retried.status).toBe(200);
      expect(retried.json()).toMatchObject({ result: "applied" });
      expect(lookups).toHaveBeenCalled();
      expect((await svc.runtime.db.prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("PAID");
    } finally {
      warn.mockRestore();
      lookups.mockRestore();
    }
  });

  it("genuine notices are never limited, however many", async () => {
    const s = await stripeOffer(fake);
    const from = "127.0.0.73";
    const statuses: number[] = [];
    for (let i = 0; i < REFUSED_NOTICES_PER_MINUTE + 5; i++) statuses.push((await postFrom(from, s.accountId, fake.signed(someEvent()))).status);
    expect(statuses).toEqual(Array(REFUSED_NOTICES_PER_MINUTE + 5).fill(200));
    // And they spent nothing of the refusal budget.
    expect((await postFrom(from, s.accountId, forged(someEvent()))).status).toBe(400);
  });

  it("oversized bodies (413) count as refusals too", async () => {
    const s = await stripeOffer(fake);
    const from = "127.0.0.74";
    const big = { ...someEvent(), data: { object: { id: "cus_x", pad: "x".repeat(300_000) } } };
    const statuses: number[] = [];
    for (let i = 0; i <= REFUSED_NOTICES_PER_MINUTE; i++) statuses.push((await postFrom(from, s.accountId, fake.signed(big))).status);
    expect(statuses).toEqual([...Array(REFUSED_NOTICES_PER_MINUTE).fill(413), 429]);
  });
});
