// What a change-plan request does, decided from the subscription and the target offer alone (no I/O):
// the contract's kind and effect, the charge and, for an immediate change, the period that follows.
import { capabilitiesSchema } from "../gateways/capabilities.ts";
import { periodEnd, type Interval } from "../shared/periods.ts";
import {
  creditTimeEnd,
  planChangeKind,
  prorationCents,
  risesOrSameIntervalTie,
  unusedCreditCents,
  type PlanChangeKind,
} from "../shared/proration.ts";
import type { NewPeriod } from "./apply-offer-change.ts";
import { cents, type Cents } from "../shared/money.ts";

export type PlanChangeEffect = "immediate" | "scheduled" | "payment_link";

export interface OfferFacts {
  id: string;
  priceCents: Cents;
  interval: Interval;
  gatewayAccountId: string;
}

export interface SubscriptionFacts {
  status: "ACTIVE" | "TRIALING";
  collectionMethod: "CARD_AUTO" | "PIX_MANUAL";
  hasCard: boolean;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** minimumChargeCents of the current offer's gateway account. */
  minimumChargeCents: Cents;
}

export interface PlanChangeDecision {
  kind: PlanChangeKind;
  effect: PlanChangeEffect;
  /** Charged on the saved card now; 0 when nothing is charged. */
  chargeCents: Cents;
  /** Instant the change applies (now, or the period end when scheduled); null for a payment link (applies when paid). */
  appliesAt: Date | null;
  /** Immediate changes that start a new cycle. */
  period?: NewPeriod;
  /** Migration link: the price the customer pays on the new gateway. */
  linkPriceCents?: Cents;
}

export const minimumChargeOf = (capabilities: unknown): Cents => cents(capabilitiesSchema.partial().parse(capabilities ?? {}).minimumChargeCents ?? 0);
const ZERO = cents(0);

export function decidePlanChange(sub: SubscriptionFacts, current: OfferFacts, target: OfferFacts, now: Date): PlanChangeDecision {
  const kind = planChangeKind(current, target);
  const start = sub.currentPeriodStart;
  const end = sub.currentPeriodEnd;
  const paidPeriod = sub.status === "ACTIVE" && start && end && end.getTime() > now.getTime();

  if (kind === "gateway_migration") {
    // The saved card does not cross gateways: the customer pays the new offer on a link, less the unused part of the period.
    const credit = paidPeriod ? unusedCreditCents(current.priceCents, start, end, now) : ZERO;
    return { kind, effect: "payment_link", chargeCents: ZERO, appliesAt: null, linkPriceCents: cents(Math.max(1, target.priceCents - credit)) };
  }
  // A trial has paid nothing, so there is nothing to prorate: every change applies at once, free.
  if (!paidPeriod) return { kind, effect: "immediate", chargeCents: ZERO, appliesAt: now };

  const scheduled: PlanChangeDecision = { kind, effect: "scheduled", chargeCents: ZERO, appliesAt: end };
  if (!risesOrSameIntervalTie(current, target)) return scheduled;

  let charge = ZERO;
  let period: NewPeriod | undefined;
  if (current.interval === target.interval) {
    charge = prorationCents(current.priceCents, target.priceCents, start, end, now);
  } else {
    const credit = unusedCreditCents(current.priceCents, start, end, now);
    if (target.interval === "YEAR") {
      // Monthly to yearly: a yearly cycle starts now, priced at the yearly price less the unused credit.
      charge = cents(Math.max(0, target.priceCents - credit));
      period = { start: now, end: periodEnd(now, "YEAR", now.getUTCDate()), anchorDay: now.getUTCDate() };
    } else {
      // Yearly to monthly (annualized rise): the credit becomes time at the new price, no charge.
      const until = creditTimeEnd(credit, target.priceCents, target.interval, now);
      period = { start: now, end: until, anchorDay: until.getUTCDate() };
    }
  }
  // Below the gateway's minimum nothing can be charged: the change applies free (no card needed).
  if (charge < sub.minimumChargeCents) charge = ZERO;
  if (charge > 0 && (sub.collectionMethod !== "CARD_AUTO" || !sub.hasCard)) return scheduled;
  return { kind, effect: "immediate", chargeCents: charge, appliesAt: now, ...(period ? { period } : {}) };
}
