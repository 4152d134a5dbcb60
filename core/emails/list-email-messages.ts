// The tenant's recorded e-mails, newest first (what the outbox holds; nothing is sent from here). A
// message not sent yet has no stored body: it is rendered from its params, as the sender will.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { renderOutboxEmail } from "./render-outbox-email.ts";

export async function listEmailMessages(
  prisma: PrismaClient,
  input: { tenantId: string; customerId?: string | null; limit: number; publicUrl: string },
) {
  const rows = await prisma.emailMessage.findMany({
    where: { tenantId: input.tenantId, ...(input.customerId ? { customerId: input.customerId } : {}) },
    orderBy: { id: "desc" },
    take: Math.max(1, Math.min(500, input.limit)),
  });
  const unrendered = rows.filter((r) => r.body === null);
  const [tenant, customers] = unrendered.length
    ? await Promise.all([
        prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { mode: true } }),
        prisma.customer.findMany({
          where: { tenantId: input.tenantId, id: { in: unrendered.flatMap((r) => (r.customerId ? [r.customerId] : [])) } },
          select: { id: true, name: true },
        }),
      ])
    : [null, []];
  const names = new Map(customers.map((c) => [c.id, c.name]));
  return Promise.all(
    rows.map(async (r) => {
      const body =
        r.body ??
        (
          await renderOutboxEmail(
            { kind: r.kind, params: r.params, fromName: r.fromName },
            { customerName: r.customerId ? (names.get(r.customerId) ?? null) : null, sandbox: tenant?.mode === "SANDBOX", publicUrl: input.publicUrl },
          )
        )?.text ??
        "";
      return { id: r.id, customer_id: r.customerId, kind: r.kind, to: r.to, subject: r.subject, body, created_at: r.createdAt.toISOString() };
    }),
  );
}
