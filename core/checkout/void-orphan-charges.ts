// Orphan checkout charges: an intent older than the in-flight window (runtime.leases.paymentInFlightMs)
// means the checkout died between its gateway charge and its records. Claimed (voiding_at, so the
// checkout can no longer record it), the gateway is asked what happened with the charge's own key;
// an approved charge is refunded with the void key (idempotent: a second sweep, or the request's
// own catch, replays it), then the intent goes. A crash mid-way leaves the claim for the next sweep.
import { askChargeOutcome } from "../gateways/ask-charge-outcome.ts";
import { refundCharge } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import type { Runtime } from "../runtime.ts";
import { tenantClock } from "../shared/clock.ts";
import { voidKey } from "./checkout-charge-intent.ts";
import { cents } from "../shared/money.ts";

export async function voidOrphanCheckoutCharges(runtime: Runtime, opts: { tenantId?: string; limit?: number; olderThanMs?: number } = {}): Promise<{ voided: number; dropped: number }> {
  const prisma = runtime.db.prisma;
  const wall = runtime.wallClock.now();
  const cutoff = new Date(wall.getTime() - (opts.olderThanMs ?? runtime.leases.paymentInFlightMs));
  const claimed = await prisma.$queryRaw<{ id: string; tenant_id: string; gateway_account_id: string; idempotency_key: string; reference: string; amount_cents: number }[]>`
    UPDATE checkout_charge_intents SET voiding_at = COALESCE(voiding_at, ${wall})
    WHERE id IN (
      SELECT id FROM checkout_charge_intents
      WHERE created_at < ${cutoff} AND (${opts.tenantId ?? null}::text IS NULL OR tenant_id = ${opts.tenantId ?? null}::text)
      ORDER BY created_at LIMIT ${opts.limit ?? 100}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, tenant_id, gateway_account_id, idempotency_key, reference, amount_cents`;
  const done = { voided: 0, dropped: 0 };
  for (const c of claimed) {
    const account = await prisma.gatewayAccount.findFirstOrThrow({ where: { id: c.gateway_account_id, tenantId: c.tenant_id } });
    const tenant = await prisma.tenant.findUniqueOrThrow({ where: { id: c.tenant_id }, select: { mode: true, clockAt: true } });
    const gw = { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), now: tenantClock(tenant, runtime.wallClock).now() };
    const asked = await askChargeOutcome(gw, c.reference, c.idempotency_key);
    if (!asked) continue; // unheard: the next sweep asks again
    if (asked.verdict.outcome === "approved") {
      const refund = await refundCharge(gw, c.reference, { chargeId: asked.verdict.chargeId, amountCents: cents(c.amount_cents), idempotencyKey: voidKey(c.idempotency_key) });
      if (!refund) continue;
      if (refund.outcome !== "refunded") runtime.logger.error({ tenant_id: c.tenant_id, reference: c.reference, detail: refund.detailCode }, "orphan checkout charge not refunded");
      done.voided++;
    } else done.dropped++;
    await prisma.checkoutChargeIntent.deleteMany({ where: { id: c.id } });
  }
  return done;
}
