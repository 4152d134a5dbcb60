// Logged gateway calls: each wraps one adapter method, turns a timeout or transport error into an
// `unknown` outcome (never a guess), and writes the gateway event row.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type {
  CardInput,
  ChargeRequest,
  GatewayAccountRef,
  GatewayAdapter,
  PixRequest,
  PixResult,
  RefundRequest,
  SavePaymentMethodRequest,
  StatusResult,
  TokenizeResult,
} from "./adapter.ts";
import { AppError } from "../shared/errors.ts";
import { GatewayRefused, GatewayUnavailable } from "./adapter.ts";
import { logGatewayEvent, type GatewayEventInput } from "./log-gateway-event.ts";

export interface GatewayCallContext {
  prisma: PrismaClient;
  adapter: GatewayAdapter;
  account: GatewayAccountRef;
  subscriptionId?: string | null;
  paymentId?: string | null;
  orderId?: string | null;
  now: Date;
  /** Where the gateway event rows go; default: written at once. The batch renewal collects and writes them together. */
  log?: (event: GatewayEventInput) => void;
}

export type ChargeOutcome =
  /** amountCents: what the gateway says it received (a notice, a status read); absent or null: the amount charged. */
  | { outcome: "approved" | "declined"; chargeId: string; detailCode: string; amountCents?: number | null }
  | { outcome: "unknown"; chargeId: ""; detailCode: string };

async function record(ctx: GatewayCallContext, event: GatewayEventInput): Promise<void> {
  if (ctx.log) ctx.log(event);
  else await logGatewayEvent(ctx.prisma, event);
}

function logBase(ctx: GatewayCallContext, code: string) {
  return {
    tenantId: ctx.account.tenantId,
    provider: ctx.account.provider,
    code,
    subscriptionId: ctx.subscriptionId,
    paymentId: ctx.paymentId,
    orderId: ctx.orderId,
    at: ctx.now,
    gatewayAccountId: ctx.account.id,
  };
}

function unavailableCode(err: unknown): { detailCode: string; httpStatus: number } {
  if (err instanceof GatewayUnavailable) return { detailCode: err.detailCode, httpStatus: err.httpStatus };
  return { detailCode: "gateway_error", httpStatus: 502 };
}

/** A card verification (tokenize, or save a browser-tokenized one), written as a gateway event either way. */
async function cardCall(ctx: GatewayCallContext, reference: string, kind: "tokenize_card" | "save_payment_method", call: () => Promise<TokenizeResult>): Promise<TokenizeResult> {
  try {
    const result = await call();
    await record(ctx, {
      ...logBase(ctx, reference),
      kind,
      outcome: result.ok ? "approved" : "declined",
      detailCode: result.ok ? "" : result.code,
      httpStatus: result.ok ? 200 : 402,
    });
    return result;
  } catch (err) {
    const { detailCode, httpStatus } = unavailableCode(err);
    await record(ctx, { ...logBase(ctx, reference), kind, outcome: "error", detailCode, httpStatus });
    return { ok: false, code: "gateway_unavailable" };
  }
}

export function tokenizeCard(ctx: GatewayCallContext, reference: string, card: CardInput): Promise<TokenizeResult> {
  return cardCall(ctx, reference, "tokenize_card", () => ctx.adapter.tokenizeCard(ctx.account, card, ctx.now));
}

/** Saves a card tokenized in the browser (Stripe.js pm_ id): the PCI SAQ A path; logged like tokenizeCard. */
export async function savePaymentMethod(ctx: GatewayCallContext, reference: string, req: SavePaymentMethodRequest): Promise<TokenizeResult> {
  const save = ctx.adapter.savePaymentMethod?.bind(ctx.adapter);
  if (!save) return { ok: false, code: "invalid_payment_method" };
  return cardCall(ctx, reference, "save_payment_method", () => save(ctx.account, req, ctx.now));
}

export async function chargeCard(ctx: GatewayCallContext, req: ChargeRequest): Promise<ChargeOutcome> {
  try {
    const result = await ctx.adapter.chargeToken(ctx.account, req, ctx.now);
    await record(ctx, {
      ...logBase(ctx, req.reference),
      kind: "charge_card",
      outcome: result.outcome,
      gatewayId: result.chargeId,
      detailCode: result.detailCode,
      httpStatus: result.outcome === "approved" ? 200 : 402,
      amountCents: req.amountCents,
    });
    return result;
  } catch (err) {
    const { detailCode, httpStatus } = unavailableCode(err);
    await record(ctx, { ...logBase(ctx, req.reference), kind: "charge_card", outcome: "unknown", detailCode, httpStatus, amountCents: req.amountCents });
    return { outcome: "unknown", chargeId: "", detailCode };
  }
}

/** What the payer and the API caller read when the gateway refuses a Pix, by our code for its reason. */
const PIX_REFUSED: Record<string, string> = {
  payer_document_refused: "o gateway de pagamento não aceitou o CPF/CNPJ do pagador para gerar o Pix",
  payer_phone_refused: "o gateway de pagamento exige um celular brasileiro do pagador para gerar o Pix",
  payer_contact_refused: "o gateway de pagamento não aceitou o nome ou o e-mail do pagador para gerar o Pix",
};

/**
 * Pix creation is idempotent by key, so an error is simply retried by the next pass. A refusal (the gateway's
 * definitive no: GatewayRefused) is written as declined and answered as a 422 pix_refused with its reason.
 */
export async function createPixCharge(ctx: GatewayCallContext, req: PixRequest): Promise<PixResult> {
  try {
    const result = await ctx.adapter.createPixCharge(ctx.account, req, ctx.now);
    await record(ctx, { ...logBase(ctx, req.reference), kind: "create_pix", outcome: "pending", gatewayId: result.chargeId, amountCents: req.amountCents });
    return result;
  } catch (err) {
    if (err instanceof GatewayRefused) {
      await record(ctx, { ...logBase(ctx, req.reference), kind: "create_pix", outcome: "declined", detailCode: err.detailCode, httpStatus: err.httpStatus, amountCents: req.amountCents });
      throw new AppError("pix_refused", PIX_REFUSED[err.detailCode] ? { error: PIX_REFUSED[err.detailCode] } : {});
    }
    const { detailCode, httpStatus } = unavailableCode(err);
    await record(ctx, { ...logBase(ctx, req.reference), kind: "create_pix", outcome: "error", detailCode, httpStatus, amountCents: req.amountCents });
    throw err;
  }
}

export async function fetchChargeStatus(ctx: GatewayCallContext, reference: string, idempotencyKey: string): Promise<StatusResult | null> {
  try {
    const result = await ctx.adapter.fetchStatus(ctx.account, idempotencyKey, ctx.now);
    const outcome = result.outcome === "not_found" ? "declined" : result.outcome;
    await record(ctx, {
      ...logBase(ctx, reference),
      kind: "fetch_status",
      outcome,
      gatewayId: result.chargeId,
      detailCode: result.outcome === "not_found" ? "not_found" : result.detailCode,
      httpStatus: result.outcome === "not_found" ? 404 : 200,
    });
    return result;
  } catch (err) {
    const { detailCode, httpStatus } = unavailableCode(err);
    await record(ctx, { ...logBase(ctx, reference), kind: "fetch_status", outcome: "unknown", detailCode, httpStatus });
    return null;
  }
}

export async function refundCharge(ctx: GatewayCallContext, reference: string, req: RefundRequest) {
  try {
    const result = await ctx.adapter.refund(ctx.account, req, ctx.now);
    await record(ctx, {
      ...logBase(ctx, reference),
      kind: "refund",
      outcome: result.outcome === "refunded" ? "refunded" : "declined",
      gatewayId: result.refundId,
      detailCode: result.detailCode,
      httpStatus: result.outcome === "refunded" ? 200 : 422,
      amountCents: req.amountCents,
    });
    return result;
  } catch (err) {
    const { detailCode, httpStatus } = unavailableCode(err);
    await record(ctx, { ...logBase(ctx, reference), kind: "refund", outcome: "unknown", detailCode, httpStatus, amountCents: req.amountCents });
    return null;
  }
}

// --- customer sync ---
import type { CustomerSyncRequest, CustomerSyncResult } from "./customer-sync.ts";

/** Pushes a customer edit to one gateway account (the event row's code is the cus_ id). A failed call is a refusal with its code. */
export async function syncCustomer(ctx: GatewayCallContext, req: CustomerSyncRequest): Promise<CustomerSyncResult> {
  try {
    const result = await ctx.adapter.updateCustomer(ctx.account, req, ctx.now);
    await record(ctx, {
      ...logBase(ctx, req.customerId),
      kind: "customer_sync",
      outcome: result.ok ? "approved" : "declined",
      detailCode: result.ok ? "" : result.detailCode,
      httpStatus: result.ok ? 200 : 422,
    });
    return result;
  } catch (err) {
    const { detailCode, httpStatus } = unavailableCode(err);
    await record(ctx, { ...logBase(ctx, req.customerId), kind: "customer_sync", outcome: "error", detailCode, httpStatus });
    return { ok: false, detailCode };
  }
}
