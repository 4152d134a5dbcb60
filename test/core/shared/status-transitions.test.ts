// The status transition tables, the one write helper and the database triggers agree, pair by pair:
// for every status machine and every (from, to), moveStatus moves a row in `from` exactly when the
// table allows it, and a raw UPDATE that bypasses the helper is refused by the database exactly then.
// The committed trigger migration is what prisma/status-triggers.ts generates from the tables.
import { describe, expect, it } from "vitest";
import type { PrismaClient } from "../../../generated/prisma/client.ts";
import { newId } from "../../../core/shared/ids.ts";
import { INVOICE, STATUS_MACHINES, SUBSCRIPTION } from "../../../prisma/status-machines.ts";
import { canMove, moveStatus, tryMoveStatus, type StatusMachine, type StatusModel } from "../../../core/shared/transition.ts";
import { isAppError } from "../../../core/shared/errors.ts";
import { latestStatusTriggersMigration, statusTriggersSql, triggerName } from "../../../prisma/status-triggers.ts";
import { makeCustomer, makeSubscription } from "../../helpers/factories.ts";
import { testService } from "../../helpers/service.ts";
import { newTenant, type TestTenant } from "../../helpers/tenant.ts";

const prisma = async () => (await testService()).runtime.db.prisma;
const statuses = (m: StatusMachine<StatusModel>) => Object.keys(m.transitions) as string[];

interface Fixture {
  t: TestTenant;
  customerId: string;
  subscriptionId: string;
  gatewayAccountId: string;
}

async function fixture(): Promise<Fixture> {
  const t = await newTenant();
  const customer = await makeCustomer(t);
  const sub = await makeSubscription(t, customer.id);
  const account = await (await prisma()).gatewayAccount.findFirstOrThrow({ where: { tenantId: t.tenantId } });
  return { t, customerId: customer.id, subscriptionId: sub.id, gatewayAccountId: account.id };
}

let seq = 0;
async function payment(db: PrismaClient, f: Fixture, status: string) {
  const id = newId("payment");
  await db.payment.create({
    data: {
      id, tenantId: f.t.tenantId, customerId: f.customerId, subscriptionId: f.subscriptionId, kind: "RECURRING", method: "CARD", methodKind: "credit_card",
      amountCents: 1000, currency: "brl", status: status as never, idempotencyKey: `pair:${id}`, gatewayAccountId: f.gatewayAccountId, provider: "sandbox",
    },
  });
  return id;
}

/** A row of the machine's table born in `status` (an insert is a birth, not a transition). */
async function rowIn(m: StatusMachine<StatusModel>, f: Fixture, status: string): Promise<string> {
  const db = await prisma();
  const tenantId = f.t.tenantId;
  switch (m.model) {
    case "subscription":
      return (await makeSubscription(f.t, f.customerId, { status: status as never, withCard: false })).id;
    case "invoice": {
      const id = newId("invoice");
      const start = new Date(Date.UTC(2030, 0, 1) + ++seq * 1000);
      await db.invoice.create({
        data: { id, tenantId, subscriptionId: f.subscriptionId, kind: "CYCLE", periodStart: start, periodEnd: new Date(start.getTime() + 86_400_000), dueAt: start, amountCents: 1000, currency: "brl", status: status as never },
      });
      return id;
    }
    case "payment":
      return payment(db, f, status);
    case "order": {
      const id = newId("order");
      await db.order.create({
        data: { id, tenantId, customerId: f.customerId, offerId: f.t.monthlyOfferId, planId: f.t.planId, unitAmountCents: 1000, amountCents: 1000, currency: "brl", status: status as never },
      });
      return id;
    }
    case "refund": {
      // One pending refund per payment (a partial unique index): each refund row has its own payment.
      const paymentId = await payment(db, f, "PAID");
      const id = newId("refund");
      await db.refund.create({
        data: { id, tenantId, paymentId, amountCents: 100, reason: "pair", revoke: "none", status: status as never, sequence: 1, idempotencyKey: `${paymentId}:refund:1` },
      });
      return id;
    }
    case "link": {
      const id = newId("link");
      await db.link.create({ data: { id, tenantId, kind: "PAYMENT_METHOD", tokenHash: `pair:${id}`, status: status as never, subscriptionId: f.subscriptionId, customerId: f.customerId } });
      return id;
    }
    case "referral": {
      // One referral per referred customer: each row refers a customer of its own.
      const referred = await makeCustomer(f.t);
      const id = newId("referral");
      await db.referral.create({
        data: { id, tenantId, programId: "rpg_pair", codeId: "rfc_pair", referrerCustomerId: f.customerId, referredCustomerId: referred.id, status: status as never, reward: {} },
      });
      return id;
    }
    case "emailMessage": {
      const id = newId("email");
      await db.emailMessage.create({
        data: { id, tenantId, kind: "subscription_canceled", to: "pair@example.com", subject: "pair", sourceKey: `pair:${id}`, messageId: `<${id}@billing>`, status: status as never },
      });
      return id;
    }
  }
}

const statusOf = async (m: StatusMachine<StatusModel>, id: string) =>
  ((await (await prisma()).$queryRawUnsafe<{ status: string }[]>(`SELECT status::text AS status FROM "${m.table}" WHERE id = $1`, id))[0]!).status;

/** A raw UPDATE that bypasses moveStatus; a canceled subscription also gets what its CHECK asks, so only the trigger can refuse. */
async function rawUpdate(m: StatusMachine<StatusModel>, id: string, to: string): Promise<"accepted" | string> {
  const extra = m.model === "subscription" && to === "CANCELED" ? `, canceled_at = now(), next_billing_at = NULL` : "";
  return (await prisma())
    .$executeRawUnsafe(`UPDATE "${m.table}" SET status = $1::"${m.enumType}"${extra} WHERE id = $2`, to, id)
    .then(
      () => "accepted",
      (err: unknown) => String((err as Error)?.message ?? err) + JSON.stringify((err as { meta?: unknown })?.meta ?? ""),
    );
}

describe("status transition tables", () => {
  it("the committed trigger migration is what the generator prints from the tables", () => {
    const latest = latestStatusTriggersMigration();
    expect(latest, "no *_status_transition_triggers migration").not.toBeNull();
    expect(latest!.sql).toBe(statusTriggersSql());
  });

  it("the live database has one status trigger per table", async () => {
    const db = await prisma();
    const rows = await db.$queryRawUnsafe<{ tgname: string; relname: string }[]>(
      `SELECT t.tgname::text AS tgname, c.relname::text AS relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname LIKE '%\\_status\\_transition' ORDER BY c.relname`,
    );
    expect(rows.map((r) => [r.relname, r.tgname]).sort()).toEqual(STATUS_MACHINES.map((m) => [m.table, triggerName(m)]).sort());
  });

  for (const m of STATUS_MACHINES as unknown as StatusMachine<StatusModel>[]) {
    it(`${m.model}: every (from, to) pair is moved by the helper and accepted by the database exactly when the table allows it`, async () => {
      const f = await fixture();
      const mismatches: string[] = [];
      for (const from of statuses(m)) {
        for (const to of statuses(m)) {
          const allowed = canMove(m, from as never, to as never);
          // The helper: the conditional UPDATE moves the row, or leaves it and says so.
          const a = await rowIn(m, f, from);
          const moved = await tryMoveStatus(await prisma(), m, {
            id: a,
            tenantId: f.t.tenantId,
            to: to as never,
            ...(m.model === "subscription" && to === "CANCELED" ? { data: { canceledAt: new Date(), nextBillingAt: null } as never } : {}),
          });
          const after = await statusOf(m, a);
          if (moved !== allowed || after !== (allowed ? to : from)) mismatches.push(`helper ${from} -> ${to}: moved=${moved}, now ${after}`);
          // The database: a raw UPDATE on a row forced into `from`.
          const b = await rowIn(m, f, from);
          const answer = await rawUpdate(m, b, to);
          const refusedByTrigger = answer !== "accepted" && answer.includes(triggerName(m));
          if (allowed ? answer !== "accepted" : !refusedByTrigger) mismatches.push(`database ${from} -> ${to}: ${answer.slice(0, 200)}`);
          if ((await statusOf(m, b)) !== (allowed ? to : from)) mismatches.push(`database ${from} -> ${to}: row left in ${await statusOf(m, b)}`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }

  it("a canceled subscription never comes back, whatever writes it", async () => {
    const f = await fixture();
    const db = await prisma();
    const sub = await makeSubscription(f.t, f.customerId, { status: "CANCELED" });
    for (const to of ["ACTIVE", "PAST_DUE", "TRIALING", "SUSPENDED", "PENDING_FIRST_PAYMENT", "CANCELED"]) {
      const refused = await db
        .$executeRawUnsafe(`UPDATE subscriptions SET status = $1::"SubscriptionStatus", canceled_at = NULL, next_billing_at = now() WHERE id = $2`, to, sub.id)
        .then(() => "accepted", (e: Error) => e.message + JSON.stringify((e as { meta?: unknown }).meta ?? ""));
      expect(refused, to).toMatch(/subscriptions_status_transition/);
    }
    await expect(db.subscription.update({ where: { id: sub.id }, data: { status: "ACTIVE" } })).rejects.toThrow();
    await expect(moveStatus(db, SUBSCRIPTION, { id: sub.id, tenantId: f.t.tenantId, to: "ACTIVE" })).rejects.toSatisfy((e) => isAppError(e) && e.key === "conflict");
    expect(await statusOf(SUBSCRIPTION as never, sub.id)).toBe("CANCELED");
  });

  it("moveStatus: a row of another tenant is not moved (conflict), and a narrowed from-set outside the table is a programming error", async () => {
    const f = await fixture();
    const other = await newTenant();
    const db = await prisma();
    const id = await rowIn(INVOICE as never, f, "OPEN");
    await expect(moveStatus(db, INVOICE, { id, tenantId: other.tenantId, to: "PAID" })).rejects.toSatisfy((e) => isAppError(e) && e.status === 409);
    await expect(moveStatus(db, INVOICE, { id, tenantId: f.t.tenantId, to: "PAID", from: ["VOID"] })).rejects.toThrow(/not in the transition table/);
    expect(await statusOf(INVOICE as never, id)).toBe("OPEN");
    await moveStatus(db, INVOICE, { id, tenantId: f.t.tenantId, to: "PAID", data: { paidAt: new Date() } });
    expect(await statusOf(INVOICE as never, id)).toBe("PAID");
  });
});
