// The sandbox gateway: no credentials, deterministic test cards, and a ledger of its own
// (sandbox_charges) standing in for the remote gateway's memory. Its writes are autocommit, outside
// our business transactions, exactly like a remote call: a crash before our commit keeps them.
import { Prisma, type PrismaClient, type SandboxCharge } from "../../generated/prisma/client.ts";
import { newId, ulid } from "../shared/ids.ts";
import type {
  CardInput,
  ChargeRequest,
  ChargeResult,
  GatewayAccountRef,
  GatewayAdapter,
  PixRequest,
  PixResult,
  RefundRequest,
  RefundResult,
  StatusResult,
  TokenizeResult,
} from "./adapter.ts";
import { GatewayUnavailable } from "./adapter.ts";
import { ADAPTER_DEFAULTS } from "./capabilities.ts";
import { brCode } from "./pix-br-code.ts";
import { behaviourOfCard, behaviourOfToken, cardBrand } from "./test-cards.ts";

const DAY_MS = 86_400_000;

// Times as UTC ISO text into timestamp(3) columns, as Prisma writes them.
const INSERT_CARD_CHARGE = `
  INSERT INTO sandbox_charges (id, tenant_id, gateway_account_id, kind, idempotency_key, reference, token, amount_cents, status, detail_code, chargeback_at, created_at)
  VALUES ($1, $2, $3, 'card', $4, $5, $6, $7::int, $8, $9, $10::timestamp(3), $11::timestamp(3))
  ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
  RETURNING id`;

export class SandboxAdapter implements GatewayAdapter {
  readonly provider = "sandbox";
  readonly defaults = ADAPTER_DEFAULTS.sandbox!;

  constructor(
    private readonly prisma: PrismaClient,
    /** Db.read: hot-path statements outside any transaction, as prepared statements. */
    private readonly read?: <T>(sql: string, params: unknown[]) => Promise<T[]>,
  ) {}

  async tokenizeCard(_account: GatewayAccountRef, card: CardInput, now: Date): Promise<TokenizeResult> {
    const number = card.number.replace(/\D/g, "");
    const expiry = Date.UTC(card.expYear, card.expMonth, 1); // first instant after the expiry month
    if (expiry <= now.getTime()) return { ok: false, code: "expired_card" };
    const behaviour = behaviourOfCard(number);
    // Tokenizing verifies the card, as a zero-amount authorization would.
    if (behaviour === "card_declined") return { ok: false, code: "card_declined" };
    return {
      ok: true,
      token: `tok_sandbox_${behaviour}_${ulid()}`,
      brand: cardBrand(number),
      last4: number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
    };
  }

  async chargeToken(account: GatewayAccountRef, req: ChargeRequest, now: Date): Promise<ChargeResult> {
    const behaviour = behaviourOfToken(req.token);
    let status = "approved";
    let detailCode = "";
    if (!behaviour) [status, detailCode] = ["declined", "invalid_token"];
    else if (req.amountCents < account.capabilities.minimumChargeCents) [status, detailCode] = ["declined", "amount_too_small"];
    else if (behaviour === "card_declined") [status, detailCode] = ["declined", "card_declined"];
    else if (behaviour === "insufficient_funds") [status, detailCode] = ["declined", "insufficient_funds"];
    // "Accepted at checkout, every later charge declines": an off-session charge is always later,
    // even the first one (a trial's end); on a page, only what follows an approved charge.
    else if (behaviour === "declines_after_first" && (req.offSession || (await this.approvedChargesOf(account.tenantId, req.token)) > 0))
      [status, detailCode] = ["declined", "insufficient_funds"];
    const chargebackAt = behaviour === "chargeback" && status === "approved" ? new Date(now.getTime() + DAY_MS) : null;
    // One round trip on the hot path: the insert itself tells a first call from a replay. Through `read`
    // when given (a prepared statement, without Prisma's per-call query compilation).
    const row = [newId("sandboxCharge"), account.tenantId, account.id, req.idempotencyKey, req.reference, req.token, req.amountCents, status, detailCode, chargebackAt?.toISOString() ?? null, now.toISOString()];
    const inserted = this.read
      ? await this.read<{ id: string }>(INSERT_CARD_CHARGE, row)
      : await this.prisma.$queryRawUnsafe<{ id: string }[]>(INSERT_CARD_CHARGE, ...row);
    const first = inserted[0];
    if (!first) return this.replayCharge((await this.find(account.tenantId, req.idempotencyKey))!);
    // The timeout card: the charge is real at the gateway, but our call never hears back.
    if (behaviour === "timeout") throw new GatewayUnavailable("timeout");
    return { outcome: status === "approved" ? "approved" : "declined", chargeId: first.id, detailCode };
  }

  async createPixCharge(account: GatewayAccountRef, req: PixRequest, now: Date): Promise<PixResult> {
    const existing = await this.find(account.tenantId, req.idempotencyKey);
    // The payer's bank app shows field 59: a real gateway's code names the vendor's account holder, so
    // the sandbox names the tenant (its legal name when set); brCode keeps the first 25 characters.
    const tenant = existing ? null : await this.prisma.tenant.findUnique({ where: { id: account.tenantId }, select: { name: true, legalName: true } });
    const row =
      existing ??
      (await this.insert({
        tenantId: account.tenantId,
        gatewayAccountId: account.id,
        kind: "pix",
        idempotencyKey: req.idempotencyKey,
        reference: req.reference,
        amountCents: req.amountCents,
        status: "pending",
        copyPaste: brCode({
          pixKey: `pix@sandbox.${account.id.slice(-10).toLowerCase()}.example`,
          amountCents: req.amountCents,
          merchantName: tenant?.legalName || tenant?.name || "SANDBOX BILLING",
          merchantCity: "SAO PAULO",
          txid: ulid(),
        }),
        expiresAt: req.expiresAt,
        createdAt: now,
      }));
    return { chargeId: row.id, copyPaste: row.copyPaste!, expiresAt: row.expiresAt! };
  }

  async refund(account: GatewayAccountRef, req: RefundRequest, now: Date): Promise<RefundResult> {
    const replay = await this.find(account.tenantId, req.idempotencyKey);
    if (replay) return this.replayRefund(replay);
    let done: { row: SandboxCharge; behaviour: ReturnType<typeof behaviourOfToken> | null; replayed: boolean };
    try {
      // The refund row (one per key) and the charge's refunded balance move together, under the
      // charge's row lock: concurrent calls with one key (the request and a reconcile sweep) or a crash
      // between the two writes can never refund twice.
      done = await this.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM sandbox_charges WHERE id = ${req.chargeId} AND tenant_id = ${account.tenantId} FOR UPDATE`;
        const again = await tx.sandboxCharge.findUnique({ where: { tenantId_idempotencyKey: { tenantId: account.tenantId, idempotencyKey: req.idempotencyKey } } });
        if (again) return { row: again, behaviour: null, replayed: true };
        const charge = await tx.sandboxCharge.findFirst({ where: { id: req.chargeId, tenantId: account.tenantId } });
        const behaviour = charge?.token ? behaviourOfToken(charge.token) : null;
        let detailCode = "";
        if (!charge || !["approved", "paid"].includes(charge.status) || charge.chargedBackAt) detailCode = "charge_not_refundable";
        else if (behaviour === "refund_declined") detailCode = "refund_declined";
        else if (charge.refundedCents > 0 && !account.capabilities.sumsPartialRefunds) detailCode = "partial_refunds_not_summed";
        else if (req.amountCents < 1 || charge.refundedCents + req.amountCents > charge.amountCents) detailCode = "amount_exceeds_balance";
        if (!detailCode) await tx.sandboxCharge.update({ where: { id: charge!.id }, data: { refundedCents: { increment: req.amountCents } } });
        const row = await tx.sandboxCharge.create({
          data: {
            id: newId("sandboxCharge"),
            tenantId: account.tenantId,
            gatewayAccountId: account.id,
            kind: "refund",
            idempotencyKey: req.idempotencyKey,
            reference: req.chargeId,
            amountCents: req.amountCents,
            status: detailCode ? "declined" : "refunded",
            detailCode,
            createdAt: now,
          },
        });
        return { row, behaviour, replayed: false };
      });
    } catch (err) {
      // A concurrent call with the same key won the insert: hear its outcome.
      // (PGlite does not surface P2002 from inside an interactive transaction, hence the message test.)
      if ((err as { code?: string })?.code === "P2002" || /unique constraint/i.test(String((err as Error)?.message))) {
        return this.replayRefund((await this.find(account.tenantId, req.idempotencyKey))!);
      }
      throw err;
    }
    // The timeout card: the refund is real at the gateway, but this answer is lost (a replay hears it).
    if (!done.replayed && done.behaviour === "timeout") throw new GatewayUnavailable("timeout");
    return this.replayRefund(done.row);
  }

  private replayRefund(row: SandboxCharge): RefundResult {
    return { outcome: row.status === "refunded" ? "refunded" : "declined", refundId: row.id, detailCode: row.detailCode };
  }

  async fetchStatus(account: GatewayAccountRef, idempotencyKey: string): Promise<StatusResult> {
    const row = await this.find(account.tenantId, idempotencyKey);
    if (!row) return { outcome: "not_found", chargeId: "", detailCode: "" };
    const outcome = row.status === "approved" || row.status === "paid" ? "approved" : row.status === "pending" ? "pending" : "declined";
    return { outcome, chargeId: row.id, detailCode: row.detailCode };
  }

  // --- sandbox-only controls (simulatePixPayment, chargebacks); not part of the adapter interface ---

  /** The payer's bank pays a pending Pix charge. Null when no such payable charge exists. */
  async payPix(copyPaste: string, now: Date): Promise<SandboxCharge | null> {
    const row = await this.prisma.sandboxCharge.findFirst({ where: { copyPaste, kind: "pix" } });
    if (!row) return null;
    if (row.status === "paid") return row; // paying twice is a replay, not a second payment
    if (row.status !== "pending" || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) return null;
    await this.prisma.sandboxCharge.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "paid" } });
    return { ...row, status: "paid" };
  }

  /** Files a chargeback on a charge (simulateChargeback or the 0259 card's schedule). */
  async fileChargeback(tenantId: string, chargeId: string, now: Date): Promise<boolean> {
    const done = await this.prisma.sandboxCharge.updateMany({
      where: { id: chargeId, tenantId, chargedBackAt: null, status: { in: ["approved", "paid"] } },
      data: { chargedBackAt: now },
    });
    return done.count === 1;
  }

  /** Charges whose scheduled chargeback fell due (test card 4000000000000259). */
  dueChargebacks(tenantId: string | null, now: Date, take: number) {
    return this.prisma.sandboxCharge.findMany({
      where: { ...(tenantId ? { tenantId } : {}), chargebackAt: { lte: now }, chargedBackAt: null },
      orderBy: { chargebackAt: "asc" },
      take,
    });
  }

  private find(tenantId: string, idempotencyKey: string) {
    return this.prisma.sandboxCharge.findUnique({ where: { tenantId_idempotencyKey: { tenantId, idempotencyKey } } });
  }

  private async approvedChargesOf(tenantId: string, token: string): Promise<number> {
    if (!this.read) return this.prisma.sandboxCharge.count({ where: { tenantId, token, kind: "card", status: "approved" } });
    const [row] = await this.read<{ n: number }>(`SELECT count(*)::int AS n FROM sandbox_charges WHERE tenant_id = $1 AND token = $2 AND kind = 'card' AND status = 'approved'`, [tenantId, token]);
    return row?.n ?? 0;
  }

  private replayCharge(row: SandboxCharge): ChargeResult {
    return { outcome: row.status === "approved" ? "approved" : "declined", chargeId: row.id, detailCode: row.detailCode };
  }

  /** Insert, or return the row a concurrent call with the same key wrote first. */
  private async insert(data: Omit<Prisma.SandboxChargeUncheckedCreateInput, "id">): Promise<SandboxCharge> {
    try {
      return await this.prisma.sandboxCharge.create({ data: { id: newId("sandboxCharge"), ...data } });
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
        return this.prisma.sandboxCharge.findUniqueOrThrow({
          where: { tenantId_idempotencyKey: { tenantId: data.tenantId, idempotencyKey: data.idempotencyKey } },
        });
      }
      throw err;
    }
  }

  // --- customer sync (imports and trigger after the class) ---

  /**
   * Nothing to keep: the sandbox has no customer records of its own. An e-mail at
   * `@sync-fail.example` is refused, the deterministic way to see a failed sync (docs/guides/sandbox-clock.md).
   */
  async updateCustomer(_account: GatewayAccountRef, req: CustomerSyncRequest): Promise<CustomerSyncResult> {
    if (req.email.toLowerCase().endsWith(SYNC_FAIL_DOMAIN)) return { ok: false, detailCode: "customer_sync_refused" };
    return { ok: true };
  }
}

// --- customer sync ---
import type { CustomerSyncRequest, CustomerSyncResult } from "./customer-sync.ts";

/** Sandbox trigger: a customer e-mail at this domain makes every customer sync fail. */
export const SYNC_FAIL_DOMAIN = "@sync-fail.example";
