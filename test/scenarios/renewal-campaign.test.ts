// A renewal campaign from audience to extended period: the customer's link, the /pay page with
// price and bonus, payment by card or Pix (a renewal-advance order: order.paid, then
// subscription.updated), exact period ends, and a total refund that reverts cycle and bonus.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, events, makeOffer, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { refund } from "../refunds/refund-helpers.ts";
import { campaignLink, campaignLinks, createCampaign, setCampaignActive } from "../campaigns/campaign-helpers.ts";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { formatDay, formatMoney } from "../../core/shared/format-money.ts";
import { summaryRows } from "../hosted/summary-helpers.ts";

const validator = createOpenApiValidator();
const T0 = "2027-03-01T12:00:00.000Z";
const REASON = "cliente pediu o estorno da campanha";

async function member(t: TestTenant, externalId: string) {
  await advanceClock(t, T0);
  const { subscription_id: id } = await subscribe(t.monthlyOfferId, { external_id: externalId, email: `${externalId}-${Math.random().toString(36).slice(2, 8)}@example.com` });
  expect((await subscription(t, id)).current_period_end).toBe("2027-04-01T12:00:00.000Z");
  return id;
}

describe("renewal campaign: audience → link → payment → extended period", () => {
  it("paid by card: one cycle plus a month of bonus; the link becomes paid; a total refund reverts the whole extension", async () => {
    const t = await newTenant();
    const id = await member(t, "alice");
    const campaign = await createCampaign(t, { priceCents: 3000, bonusCycles: 1, bonusUnit: "month", audience: { statuses: ["ACTIVE"], planIds: [t.planId] } });
    const link = await campaignLink(t, campaign, "alice");
    expect(link.status).toBe(200);
    const token = tokenOf(link.body.url);

    const page = await payPage(token);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Renove com bônus");
    // The order summary: the campaign's price today, the next renewal after the cycle and its bonus.
    const rows = summaryRows(page.text);
    expect(rows["Cobrado hoje"]).toBe(formatMoney(3000));
    expect(rows["Próxima cobrança"]).toBe(`${formatMoney(4990)} em ${formatDay("2027-06-01T12:00:00.000Z")}`);
    expect(page.text).toContain("mais 1 mês de bônus");
    expect(page.text).toContain('name="card_number"');

    const paid = await payJson(token, { method: "card", ...CARD(CARDS.ok) });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe("paid");
    // 2027-04-01 + one monthly cycle = 2027-05-01, + 1 month of bonus = 2027-06-01.
    expect((await subscription(t, id)).current_period_end).toBe("2027-06-01T12:00:00.000Z");

    const all = await events(t);
    const orderPaid = all.find((e) => e.type === "order.paid")!;
    expect(orderPaid.data).toMatchObject({ status: "paid", target_subscription_id: id, amount_cents: 3000, quantity: 1, payment: { status: "paid", method: "card" } });
    expect(all.slice(all.indexOf(orderPaid)).map((e) => `${e.type}:${e.data.status}`)).toEqual(["order.paid:paid", "subscription.updated:active"]);
    for (const e of all) expect(validator.validateWebhook(e.type, e).errors, e.type).toEqual([]);

    // The link is paid: the re-get says so, the list too, and /pay no longer takes it.
    expect((await campaignLink(t, campaign, "alice")).body).toMatchObject({ token: link.body.token, status: "paid" });
    expect((await campaignLinks(t, campaign)).body.results[0]).toMatchObject({ external_id: "alice", status: "paid" });
    expect((await payPage(token)).status).toBe(410);
    expect((await payJson(token, { method: "card", ...CARD(CARDS.ok) })).body.code).toBe("link_used");

    // A total refund of the order takes back the cycle and the bonus.
    await advanceClock(t, "2027-03-10T12:00:00.000Z");
    const res = await refund(t, orderPaid.data.payment.payment_id, { amount_cents: 3000, reason: REASON });
    expect(res.status).toBe(200);
    expect(res.body.level).toBe("success");
    expect((await subscription(t, id))).toMatchObject({ status: "active", current_period_end: "2027-04-01T12:00:00.000Z" });
    expect((await events(t)).map((e) => e.type).slice(-3)).toEqual(["payment.refunded", "order.refunded", "subscription.updated"]);
    // The renewal falls due again at the old period end.
    expect((await advanceClock(t, "2027-04-01T12:00:00.000Z")).renewed).toBe(1);
    expect((await subscription(t, id)).current_period_end).toBe("2027-05-01T12:00:00.000Z");
  });

  it("paid by Pix: the period moves only when the QR is paid, by one cycle plus 10 days", async () => {
    const t = await newTenant();
    const id = await member(t, "bruno");
    const campaign = await createCampaign(t, { priceCents: 4500, bonusCycles: 10, bonusUnit: "day", audience: { customerExternalIds: ["bruno"] } });
    const token = tokenOf((await campaignLink(t, campaign, "bruno")).body.url);
    expect((await payPage(token)).text).toContain("mais 10 dias de bônus");

    const pending = await payJson(token, { method: "pix" });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: "pending", pix: { copy_paste: expect.any(String) } });
    expect((await subscription(t, id)).current_period_end).toBe("2027-04-01T12:00:00.000Z");
    expect((await campaignLink(t, campaign, "bruno")).body.status).toBe("open");

    await payPix(pending.body.pix.copy_paste);
    expect((await subscription(t, id)).current_period_end).toBe("2027-05-11T12:00:00.000Z");
    const orderPaid = (await events(t, "order.paid"))[0]!;
    expect(orderPaid.data).toMatchObject({ target_subscription_id: id, amount_cents: 4500, payment: { method: "pix", card: null } });
    expect((await campaignLink(t, campaign, "bruno")).body.status).toBe("paid");

    const res = await refund(t, orderPaid.data.payment.payment_id, { amount_cents: 4500, reason: REASON });
    expect(res.body.level).toBe("success");
    expect((await subscription(t, id)).current_period_end).toBe("2027-04-01T12:00:00.000Z");
  });

  it("takes the campaign offer's methods, and stops taking payments once the campaign is deactivated", async () => {
    const t = await newTenant();
    await member(t, "carla");
    const cardOnly = await makeOffer(t, { methods: ["CARD_AUTO"] });
    const campaign = await createCampaign(t, { offerId: cardOnly, bonusCycles: 0 });
    const link = await campaignLink(t, campaign, "carla");
    expect(link.body).toMatchObject({ offer_id: cardOnly, bonus_cycles: 0 });
    const token = tokenOf(link.body.url);
    const page = await payPage(token);
    expect(page.text).not.toContain("de bônus");
    const pix = await payJson(token, { method: "pix" });
    expect(pix.status).toBe(422);
    expect(pix.body).toMatchObject({ error: "forma de pagamento indisponível nesta oferta", field: "method" });

    await setCampaignActive(campaign, false);
    expect((await payPage(token)).text).toContain("Esta campanha foi encerrada.");
    const refused = await payJson(token, { method: "card", ...CARD(CARDS.ok) });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("Esta campanha foi encerrada.");
    expect(await events(t, "order.paid")).toEqual([]);
  });
});
