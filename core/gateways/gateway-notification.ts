// A provider's webhook notice, verified and normalized by its adapter (GatewayAdapter.parseWebhook), so
// the inbound route (POST /gateways/{gateway_account_id}/webhooks) can dedupe on the provider's event id
// and apply it through our own use cases, whatever the provider. Types only.

export type GatewayNotificationKind =
  | "pix_paid"
  | "charge_succeeded"
  | "charge_failed"
  | "refund_succeeded"
  | "refund_failed"
  | "dispute_opened"
  /** Verified, but nothing we act on (customer.created, setup_intent.succeeded…): answered 2xx and dropped. */
  | "ignored";

export interface GatewayNotification {
  /** The provider's event id (Stripe: evt_…): a notice is applied once per id. */
  eventId: string;
  /** The provider's own event type (payment_intent.succeeded…), for the log. */
  providerType: string;
  kind: GatewayNotificationKind;
  /** The charge the notice is about: the id our payments keep as gatewayChargeId (Stripe: the pi_ id). */
  chargeId: string;
  /** The refund (re_) or dispute (dp_) the notice is about; empty for a charge notice. */
  objectId: string;
  /** Our idempotency key of the charge or refund, when the provider echoes it back (Stripe: metadata). */
  idempotencyKey: string | null;
  /** Our own code of the charge (inv_/ord_), when echoed back. */
  reference: string | null;
  /** Amount of the charge (approved: what the provider says it received), refund or dispute, in cents; null when the notice carries none. */
  amountCents: number | null;
  /** Decline code of a failed charge, failure reason of a refund, reason of a dispute; empty otherwise. */
  detailCode: string;
  /** When the provider says the event happened. */
  occurredAt: Date;
  /** False for a test-mode event (Stripe's livemode). */
  livemode: boolean;
}

/**
 * Why a notice was refused: all of them are answered 400 and change nothing. bad_token: the notice URL's
 * secret token (providers that sign nothing, notice-token.ts) is missing or wrong.
 */
export type WebhookRefusal = "missing_signature" | "bad_signature" | "bad_token" | "stale" | "malformed";

export type WebhookParseResult = { ok: true; notification: GatewayNotification } | { ok: false; reason: WebhookRefusal };
