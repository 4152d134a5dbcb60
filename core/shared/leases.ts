// How long a worker may hold a claimed item before another (or the restarted process) takes it over.
// Wall-clock durations, from the environment (docs/reference/configuration.md); the defaults are production's.
// Shortening them only makes a crashed holder's work come back sooner: every guard still applies.

export interface Leases {
  /** A subscription claimed by the billing run (billing_lease_until). */
  billingMs: number;
  /** A refund driven by its request, or by one reconcile sweep (refunds.lease_until). */
  refundMs: number;
  /** A webhook delivery claimed by a dispatcher (webhook_deliveries.lease_until). */
  webhookMs: number;
  /**
   * An outbox e-mail claimed by a sender (email_messages.lease_until). Longer than one SMTP exchange
   * can take (10 s to connect, 20 s per read): a shorter lease lets another sender repeat a slow
   * message (same Message-ID, so the receiver can drop it, but still a repeat).
   */
  emailMs: number;
  /** A card attempt still PROCESSING after this long is settled by the reconcile sweep from the gateway's record. */
  paymentInFlightMs: number;
  /** An exclusive scheduled job's lease in job_leases (a crashed holder's job runs elsewhere after it). */
  jobMs: number | null;
}

export const DEFAULT_LEASES: Leases = {
  billingMs: 5 * 60_000,
  refundMs: 60_000,
  webhookMs: 30_000,
  emailMs: 2 * 60_000,
  paymentInFlightMs: 60_000,
  jobMs: null,
};

function ms(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`lease durations are positive integers (ms), got ${JSON.stringify(value)}`);
  return n;
}

export function leasesFromEnv(env: NodeJS.ProcessEnv = process.env): Leases {
  return {
    billingMs: ms(env.BILLING_LEASE_MS, DEFAULT_LEASES.billingMs),
    refundMs: ms(env.REFUND_LEASE_MS, DEFAULT_LEASES.refundMs),
    webhookMs: ms(env.WEBHOOK_LEASE_MS, DEFAULT_LEASES.webhookMs),
    emailMs: ms(env.EMAIL_LEASE_MS, DEFAULT_LEASES.emailMs),
    paymentInFlightMs: ms(env.PAYMENT_IN_FLIGHT_MS, DEFAULT_LEASES.paymentInFlightMs),
    jobMs: env.JOB_LEASE_MS ? ms(env.JOB_LEASE_MS, 0) : null,
  };
}
