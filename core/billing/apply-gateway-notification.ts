// An inbound provider notice (POST /gateways/{gateway_account_id}/webhooks): verified by the account's
// adapter over the raw body with the account's webhook secret, recorded once per provider event id, and
// applied through the same use cases as our own flows: settlePayment (Pix paid; a card charge heard
// late; a Pix paid after we gave it up, recorded by recordLatePixPayment), finishRefund (a pending
// refund), recordChargeback (a dispute). The notice's row is written
// first inside the effect's own transaction, so a second delivery (UNIQUE account + event id) rolls the
// whole effect back, and a notice is never recorded without its effect. A verified notice already
// recorded is answered `duplicate` (2xx): the provider redelivers whenever our first 200 was lost, and a
// refusal would have it retry for days. Only forged, stale and malformed notices are refused (400) and
// change nothing; a verified notice about nothing of ours is recorded as ignored.
import type { Refund, Payment } from "../../generated/prisma/client.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { recordLatePixPayment } from "./record-late-pix-payment.ts";
import { settlePayment } from "./settle-payment.ts";
import type { Tx } from "../shared/tx.ts";
import { recordChargeback } from "../payments/record-chargeback.ts";
import { finishRefund } from "../refunds/finish-refund.ts";
import type { Runtime } from "../runtime.ts";
import { tenantClock } from "../shared/clock.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId, newId } from "../shared/ids.ts";
import { CredentialsUnavailable } from "../gateways/adapter.ts";
import type { GatewayNotification } from "../gateways/gateway-notification.ts";
import { logGatewayEvent, paymentNotice } from "../gateways/log-gateway-event.ts";
import { accountRef } from "../gateways/registry.ts";

export type NotificationResult = "applied" | "ignored";

export interface AppliedNotification {
  eventId: string;
  kind: GatewayNotification["kind"];
  /** duplicate: verified, but already recorded by an earlier delivery; nothing changed. */
  result: NotificationResult | "duplicate";
}

/** A payment whose outcome a charge notice may still decide: not settled yet (unknown, or in flight). */
const UNSETTLED = ["UNKNOWN", "PROCESSING"] as const;

export async function applyGatewayNotification(
  runtime: Runtime,
  input: { gatewayAccountId: string; rawBody: Buffer; headers: Record<string, string | string[] | undefined>; query?: Record<string, string | undefined> },
): Promise<AppliedNotification> {
  const prisma = runtime.db.prisma;
  // Account ids are global: the id in the path names the account, and with it the tenant.
  const account = isId("gatewayAccount", input.gatewayAccountId)
    ? await prisma.gatewayAccount.findUnique({ where: { id: input.gatewayAccountId }, include: { tenant: { select: { mode: true, clockAt: true } } } })
    : null;
  if (!account || !runtime.gateways.has(account.provider)) throw notFound("gateway account");
  const adapter = runtime.gateways.adapter(account.provider);
  if (!adapter.parseWebhook) throw notFound("gateway account");
  let secret = "";
  try {
    secret = (await runtime.gateways.credentials(account)).credentials.webhookSecret ?? "";
  } catch (err) {
    if (!(err instanceof CredentialsUnavailable)) throw err;
  }
  if (!secret && adapter.webhookSecretRequired !== false) throw refused("this gateway account has no webhook secret");
  // The signature's age is the provider's real time, not a sandbox tenant's clock.
  const parsed = await adapter.parseWebhook(input.rawBody, input.headers, secret, runtime.wallClock.now(), accountRef(account), input.query);
  if (!parsed.ok) {
    runtime.logger.warn({ gateway_account_id: account.id, reason: parsed.reason }, "gateway webhook refused");
    throw refused(`notice refused: ${parsed.reason}`);
  }
  const n = parsed.notification;
  const tenantId = account.tenantId;
  const recorded = () => prisma.gatewayNotification.findUnique({ where: { gatewayAccountId_providerEventId: { gatewayAccountId: account.id, providerEventId: n.eventId } } });
  const duplicate = (): AppliedNotification => ({ eventId: n.eventId, kind: n.kind, result: "duplicate" });
  if (await recorded()) return duplicate();
  const now = tenantClock(account.tenant, runtime.wallClock).now();
  const record = (result: NotificationResult) => async (tx: Tx) => {
    await tx.gatewayNotification.create({
      data: {
        id: newId("gatewayNotification"),
        tenantId,
        gatewayAccountId: account.id,
        providerEventId: n.eventId,
        kind: n.kind,
        result,
        summary: summaryOf(n),
        receivedAt: runtime.wallClock.now(),
        appliedAt: result === "applied" ? now : null,
      },
    });
  };
  const done = (result: NotificationResult): AppliedNotification => ({ eventId: n.eventId, kind: n.kind, result });
  try {
    switch (n.kind) {
      case "pix_paid":
      case "charge_succeeded":
      case "charge_failed": {
        const payment = await paymentOf(runtime, account.id, tenantId, n);
        if (payment && n.kind === "pix_paid" && payment.method === "PIX" && payment.status === "FAILED") {
          // Paid after we gave the QR up: the money is recorded (and refunded if nothing is left to pay).
          const late = await recordLatePixPayment(runtime, {
            failed: payment,
            chargeId: n.chargeId,
            amountCents: n.amountCents,
            now,
            record: record("applied"),
            beforeSettling: (p) => logGatewayEvent(prisma, paymentNotice(p, { kind: n.kind, outcome: "approved", gatewayId: n.chargeId, at: now })),
          });
          if (late === "already_recorded") break;
          return done("applied");
        }
        if (!payment || !(UNSETTLED as readonly string[]).includes(payment.status)) break;
        // A Pix the payer never paid is not a decline: the provider expiring it is given up by our own
        // rules (a fresh QR when asked, the checkout or subscription ending), as the sandbox's Pix is; a
        // decline would count a dunning step (past_due before the due date) or cancel a pending order.
        if (n.kind === "charge_failed" && payment.method === "PIX") break;
        const approved = n.kind !== "charge_failed";
        await settlePayment(
          runtime,
          // The money is what the provider says it received, not what we asked.
          { tenantId, paymentId: payment.id, verdict: { outcome: approved ? "approved" : "declined", chargeId: n.chargeId, detailCode: n.detailCode, amountCents: n.amountCents }, now },
          { record: record("applied") },
        );
        await logGatewayEvent(prisma, paymentNotice(payment, { kind: n.kind, outcome: approved ? "approved" : "declined", gatewayId: n.chargeId, at: now }));
        return done("applied");
      }
      case "refund_succeeded":
      case "refund_failed": {
        const refund = await refundOf(runtime, tenantId, account.id, n);
        if (!refund || refund.status !== "PENDING") break;
        await finishRefund(runtime, {
          tenantId,
          refundId: refund.id,
          result: { outcome: n.kind === "refund_succeeded" ? "refunded" : "declined", refundId: n.objectId, detailCode: n.detailCode },
          now,
          record: record("applied"),
        });
        return done("applied");
      }
      case "dispute_opened": {
        const payment = await paymentOf(runtime, account.id, tenantId, n);
        if (!payment || payment.status !== "PAID") break;
        await recordChargeback(runtime, { tenantId, paymentId: payment.id, now, record: record("applied") });
        return done("applied");
      }
      case "ignored":
        break;
    }
    // Verified but about nothing of ours to change (another system's charge, already settled, a kind we skip).
    await prisma.$transaction((tx) => record("ignored")(tx));
    return done("ignored");
  } catch (err) {
    // Two deliveries of one event at once: the second's row collides and its whole effect rolls back;
    // the first one's row is there, so this one is a duplicate too.
    // (PGlite does not surface P2002 from inside an interactive transaction, hence the message test.)
    if ((err as { code?: string })?.code === "P2002" || /gateway_notifications_gateway_account_id_provider_event_id_key|unique constraint/i.test(String((err as Error)?.message))) {
      if (await recorded()) return duplicate();
      throw refused("notice refused: replayed");
    }
    throw err;
  }
}

function refused(error: string): AppError {
  return new AppError("webhook_refused", { error });
}

/** The payment a charge notice is about: by the provider's charge id, else by our own idempotency key it echoes. */
async function paymentOf(runtime: Runtime, gatewayAccountId: string, tenantId: string, n: GatewayNotification): Promise<Payment | null> {
  const or: Prisma.PaymentWhereInput[] = [];
  if (n.chargeId) or.push({ gatewayChargeId: n.chargeId });
  if (n.idempotencyKey) or.push({ idempotencyKey: n.idempotencyKey });
  if (!or.length) return null;
  return runtime.db.prisma.payment.findFirst({ where: { tenantId, gatewayAccountId, OR: or }, orderBy: { id: "desc" } });
}

/** The refund a refund notice is about: by our idempotency key it echoes, else by the provider's refund id. */
async function refundOf(runtime: Runtime, tenantId: string, gatewayAccountId: string, n: GatewayNotification): Promise<Refund | null> {
  const or: Prisma.RefundWhereInput[] = [];
  if (n.idempotencyKey) or.push({ idempotencyKey: n.idempotencyKey });
  if (n.objectId) or.push({ gatewayRefundId: n.objectId });
  if (!or.length) return null;
  return runtime.db.prisma.refund.findFirst({ where: { tenantId, payment: { gatewayAccountId }, OR: or } });
}

/** What the row keeps of a notice: ids, amount and codes; never a secret, never card data. */
function summaryOf(n: GatewayNotification) {
  return {
    provider_type: n.providerType,
    charge_id: n.chargeId,
    object_id: n.objectId,
    reference: n.reference,
    amount_cents: n.amountCents,
    detail_code: n.detailCode,
    occurred_at: n.occurredAt.toISOString(),
    livemode: n.livemode,
  };
}
