// The /pay page of a GATEWAY_MIGRATION link (issued by core/subscriptions/gateway-migration.ts):
//   payGatewayMigrationLink(runtime, { tenantId, linkId, card, now })
//     tenantId: the link's tenant; linkId: links.id (kind GATEWAY_MIGRATION, status OPEN, not expired);
//     card: the page's card (core/links/page-card.ts): typed on a sandbox page, or the TARGET provider's
//       browser token (Stripe.js pm_…; PCI SAQ A), saved at the target account with savePaymentMethod;
//     now: the tenant's clock.
//   Tokenizes the card on the new gateway, charges the link's price there, and moves the subscription
//   to the new offer: card_auto on the new card, a new period from now, link PAID, events
//   subscription.plan_changed + invoice.paid. Returns { subscriptionId, amountCents }.
//   Throws AppError: conflict (409) when the link or subscription can no longer be paid;
//   invalid_field {error, field: "card_number"} (422) when the card is refused or declined.
import type { GatewayAccount } from "../../generated/prisma/client.ts";
import { LINK, SUBSCRIPTION } from "../../prisma/status-machines.ts";
import { CARD_NOT_APPROVED } from "../checkout/refusal-texts.ts";
import { saveCard } from "../customers/save-card.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { accountRef } from "../gateways/registry.ts";
import type { Runtime } from "../runtime.ts";
import { AppError } from "../shared/errors.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { cents } from "../shared/money.ts";
import { periodEnd } from "../shared/periods.ts";
import { IN_GOOD_STANDING, isIn } from "../shared/status-sets.ts";
import { moveStatus, tryMoveStatus } from "../shared/transition.ts";
import { applyOfferChange } from "../subscriptions/apply-offer-change.ts";
import { chargePlanChange, reserveProration } from "../subscriptions/charge-plan-change.ts";
import { tokenizeOnPage, type PageCard } from "./page-card.ts";

const gone = () => new AppError("conflict", { error: "this link can no longer be paid" });
const cardError = (error: string) => new AppError("invalid_field", { error, extra: { field: "card_number" } });

export async function payGatewayMigrationLink(runtime: Runtime, input: { tenantId: string; linkId: string; card: PageCard; now: Date }) {
  const prisma = runtime.db.prisma;
  const { tenantId, now } = input;
  const link = await prisma.link.findFirst({ where: { id: input.linkId, tenantId, kind: "GATEWAY_MIGRATION" } });
  if (!link || link.status !== "OPEN" || !link.subscriptionId || !link.offerId || link.priceCents == null) throw gone();
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) throw gone();
  const offer = await prisma.offer.findFirstOrThrow({ where: { id: link.offerId, tenantId }, include: { gatewayAccount: true } });
  const sub = await prisma.subscription.findFirstOrThrow({ where: { id: link.subscriptionId, tenantId } });
  if (!isIn(IN_GOOD_STANDING, sub.status)) throw gone();

  const account: GatewayAccount = offer.gatewayAccount;
  const gw = { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), subscriptionId: sub.id, now };
  // The card is saved at the TARGET account (the new offer's gateway), by its own tokenizer.
  const token = await tokenizeOnPage(gw, link.id, input.card, { tenantId, customerId: sub.customerId }, { chargeFollows: true });
  const card = await saveCard(prisma, { tenantId, customerId: sub.customerId, gatewayAccountId: account.id, token });
  const newPeriod = { start: now, end: periodEnd(now, offer.interval ?? "MONTH", now.getUTCDate()), anchorDay: now.getUTCDate() };

  const reservation = await prisma.$transaction(async (tx) => {
    await lockSubscription(tx, tenantId, sub.id);
    const fresh = await tx.link.findFirstOrThrow({ where: { id: link.id, tenantId } });
    const current = await tx.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId } });
    if (fresh.status !== "OPEN" || !isIn(IN_GOOD_STANDING, current.status)) throw gone();
    return reserveProration(tx, { subscription: current, account, card, amountCents: cents(link.priceCents!), periodEnd: newPeriod.end, now });
  });
  await chargePlanChange(runtime, {
    tenantId,
    subscriptionId: sub.id,
    reservation,
    now,
    declined: () => cardError(CARD_NOT_APPROVED),
    onPage: true,
    apply: async (tx, current, paymentId) => {
      if (!(await tryMoveStatus(tx, LINK, { id: link.id, tenantId, to: "PAID", from: ["OPEN"], data: { usedAt: now } }))) throw gone();
      await applyOfferChange(tx, {
        tenantId,
        subscriptionId: current.id,
        collectionMethod: "CARD_AUTO",
        offer,
        keepCoupon: current.pendingKeepCoupon,
        period: newPeriod,
        extra: { paymentMethodId: card.id, collectionMethod: "CARD_AUTO", lastPaymentId: paymentId },
      });
      // A trial paid by the migration link starts its first paid period: trialing -> active.
      await moveStatus(tx, SUBSCRIPTION, { id: current.id, tenantId, to: "ACTIVE" });
      await emitSubscriptionEvents(tx, { tenantId, subscriptionId: current.id, types: ["subscription.plan_changed", "invoice.paid"], at: now });
    },
  });
  return { subscriptionId: sub.id, amountCents: link.priceCents };
}
