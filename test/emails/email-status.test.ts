// The e-mail status machine (prisma/status-machines.ts EMAIL) is enforced by the database: a sent
// message never becomes pending or failed again, a failed one is not quietly re-queued, and the
// sender's own moves (PENDING -> SENT, PENDING -> FAILED) and a retry (no status change) still pass.
import { describe, expect, it } from "vitest";
import { newId } from "../../core/shared/ids.ts";
import { EMAIL } from "../../prisma/status-machines.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const prisma = async () => (await testService()).runtime.db.prisma;

async function emailIn(tenantId: string, status: "PENDING" | "SENT" | "FAILED"): Promise<string> {
  const id = newId("email");
  await (await prisma()).emailMessage.create({
    data: { id, tenantId, kind: "subscription_canceled", to: "status@example.com", subject: "status", sourceKey: `status:${id}`, messageId: `<${id}@billing>`, status },
  });
  return id;
}

const rawMove = async (id: string, to: string) =>
  (await prisma())
    .$executeRawUnsafe(`UPDATE email_messages SET status = $1::"EmailStatus" WHERE id = $2`, to, id)
    .then(
      () => "accepted",
      (e: Error) => e.message + JSON.stringify((e as { meta?: unknown }).meta ?? ""),
    );

describe("e-mail status transitions", () => {
  it("the table: PENDING becomes SENT or FAILED; SENT and FAILED are final", () => {
    expect(EMAIL.transitions).toEqual({ PENDING: ["SENT", "FAILED"], SENT: [], FAILED: [] });
  });

  it("the database refuses every move out of SENT or FAILED, and PENDING -> PENDING", async () => {
    const { tenantId } = await newTenant();
    for (const [from, to] of [
      ["SENT", "PENDING"],
      ["SENT", "FAILED"],
      ["SENT", "SENT"],
      ["FAILED", "PENDING"],
      ["FAILED", "SENT"],
      ["FAILED", "FAILED"],
      ["PENDING", "PENDING"],
    ] as const) {
      const id = await emailIn(tenantId, from);
      expect(await rawMove(id, to), `${from} -> ${to}`).toMatch(/email_messages_status_transition/);
      // Through Prisma too (what a future use case would write by mistake).
      await expect((await prisma()).emailMessage.update({ where: { id }, data: { status: to } }), `${from} -> ${to}`).rejects.toThrow();
      expect((await (await prisma()).emailMessage.findUniqueOrThrow({ where: { id } })).status).toBe(from);
    }
  });

  it("the sender's moves pass: PENDING -> SENT, PENDING -> FAILED, and a retry that leaves the status alone", async () => {
    const { tenantId } = await newTenant();
    const db = await prisma();
    const sent = await emailIn(tenantId, "PENDING");
    expect(await rawMove(sent, "SENT")).toBe("accepted");
    const failed = await emailIn(tenantId, "PENDING");
    expect(await rawMove(failed, "FAILED")).toBe("accepted");
    const retried = await emailIn(tenantId, "PENDING");
    await db.emailMessage.update({ where: { id: retried }, data: { attempts: 1, nextAttemptAt: new Date(), leaseUntil: null } });
    expect((await db.emailMessage.findUniqueOrThrow({ where: { id: retried } })).attempts).toBe(1);
  });
});
