// First step of a refund, before the gateway is called: under a row lock on the payment, the rules
// are checked and a PENDING refund row is written with the payment marked refund_in_flight. Only one
// refund of a payment can be pending (a partial unique index), so concurrent refunds of the same
// payment are refused here, and a crash after this commit is finished by the reconcile job.
import type { Payment } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import type { Capabilities } from "../gateways/capabilities.ts";
import { AppError, notFound, refundRefused } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { cents, type Cents } from "../shared/money.ts";
import type { RefundDecision } from "./refund-rules.ts";

export interface ReservedRefund {
  refundId: string;
  tenantId: string;
  paymentId: string;
  amountCents: Cents;
  idempotencyKey: string;
}

export interface ReserveInput {
  tenantId: string;
  paymentId: string;
  /** As asked; `decide` validates it before anything is written. */
  amountCents: number;
  confirmRunway: boolean;
  now: Date;
  /** The rules (refund-rules.ts), or a fixed decision for the service's own refunds (surplus payments). */
  decide: (payment: Payment, gateway: Capabilities) => RefundDecision;
}

export async function reserveRefund(runtime: Runtime, input: ReserveInput): Promise<ReservedRefund> {
  const prisma = runtime.db.prisma;
  try {
    return await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM payments WHERE id = ${input.paymentId} AND tenant_id = ${input.tenantId} FOR UPDATE`;
      const payment = await tx.payment.findFirst({ where: { id: input.paymentId, tenantId: input.tenantId } });
      if (!payment) throw notFound("payment");
      const account = await tx.gatewayAccount.findFirstOrThrow({ where: { id: payment.gatewayAccountId, tenantId: input.tenantId } });
      const decision = input.decide(payment, account.capabilities as unknown as Capabilities);
      const amountCents = cents(input.amountCents);
      if (!input.confirmRunway && payment.invoiceId) {
        const invoice = await tx.invoice.findFirst({ where: { id: payment.invoiceId, tenantId: input.tenantId }, select: { periodStart: true } });
        // Paid ahead: the period this invoice funded has not started yet.
        if (invoice && invoice.periodStart.getTime() > input.now.getTime()) {
          throw new AppError("refund_needs_confirmation", { extra: { requires_confirmation: "runway" } });
        }
      }
      const last = await tx.refund.aggregate({ where: { paymentId: payment.id, tenantId: input.tenantId }, _max: { sequence: true } });
      const sequence = (last._max.sequence ?? 0) + 1;
      const refund = await tx.refund.create({
        data: {
          id: newId("refund"),
          tenantId: input.tenantId,
          paymentId: payment.id,
          amountCents,
          reason: decision.reason,
          revoke: decision.revoke,
          status: "PENDING",
          sequence,
          idempotencyKey: `${payment.id}:refund:${sequence}`,
          // How long the request drives it (runtime.leases.refundMs); past this, the reconcile job takes over.
          leaseUntil: new Date(runtime.wallClock.now().getTime() + runtime.leases.refundMs),
          createdAt: input.now,
        },
      });
      await tx.payment.update({ where: { id: payment.id }, data: { refundInFlight: true } });
      return { refundId: refund.id, tenantId: input.tenantId, paymentId: payment.id, amountCents, idempotencyKey: refund.idempotencyKey };
    });
  } catch (err) {
    // The database's own guard (one pending refund per payment, unique sequence) caught a race.
    // (PGlite does not surface P2002 from inside an interactive transaction, hence the message test.)
    if ((err as { code?: string })?.code === "P2002" || /refunds_one_pending_per_payment|unique constraint/i.test(String((err as Error)?.message))) {
      throw refundRefused("já há um reembolso deste pagamento aguardando a confirmação do gateway");
    }
    throw err;
  }
}
