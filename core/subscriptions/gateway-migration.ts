// A plan change to an offer of another gateway account. The saved card does not cross gateways, so
// change-plan issues at once a GATEWAY_MIGRATION link (/pay/{token}, 7 days) priced at the new offer
// less the unused part of the current period, and emits subscription.migration_link_issued. Nothing
// else changes until the customer pays it; a later change-plan or cancel-plan-change cancels it.
import type { Offer, Subscription } from "../../generated/prisma/client.ts";
import { LINK } from "../../prisma/status-machines.ts";
import type { Runtime } from "../runtime.ts";
import { emitEvents } from "../events/catalogue.ts";
import { mintLink } from "../shared/mint-link.ts";
import type { Cents } from "../shared/money.ts";
import { moveStatuses } from "../shared/transition.ts";
import type { Tx } from "../shared/tx.ts";

const LINK_TTL_MS = 7 * 86_400_000;

/** Cancels the subscription's open migration links (a newer change or cancel-plan-change supersedes them). */
export async function cancelMigrationLinks(tx: Tx, tenantId: string, subscriptionId: string): Promise<number> {
  return moveStatuses(tx, LINK, { tenantId, where: { subscriptionId, kind: "GATEWAY_MIGRATION" }, to: "CANCELED" });
}

export async function issueMigrationLink(
  runtime: Runtime,
  tx: Tx,
  input: { tenantId: string; subscription: Subscription; offer: Offer; priceCents: Cents; keepCoupon: boolean; now: Date },
) {
  const { tenantId, subscription: sub, offer, now } = input;
  await cancelMigrationLinks(tx, tenantId, sub.id);
  // The link replaces any scheduled change; keep_coupon is remembered for the payment.
  await tx.subscription.update({ where: { id: sub.id }, data: { pendingOfferId: null, pendingOfferEffectiveAt: null, pendingKeepCoupon: input.keepCoupon } });
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  const minted = await mintLink(tx, {
    tenantId,
    kind: "GATEWAY_MIGRATION",
    expiresAt,
    fields: { customerId: sub.customerId, subscriptionId: sub.id, offerId: offer.id, priceCents: input.priceCents },
  });
  const link = { url: `${runtime.config.publicUrl}${minted.path}`, offer_id: offer.id, expires_at: expiresAt.toISOString() };
  await emitEvents(tx, { tenantId, subject: { kind: "migration_link", subscriptionId: sub.id, link }, types: ["subscription.migration_link_issued"], at: now });
  return link;
}
