// The tenant's recorded e-mails, newest first (what the outbox holds; nothing is sent from here).
import type { PrismaClient } from "../../generated/prisma/client.ts";

export async function listEmailMessages(prisma: PrismaClient, input: { tenantId: string; customerId?: string | null; limit: number }) {
  const rows = await prisma.emailMessage.findMany({
    where: { tenantId: input.tenantId, ...(input.customerId ? { customerId: input.customerId } : {}) },
    orderBy: { id: "desc" },
    take: Math.max(1, Math.min(500, input.limit)),
  });
  return rows.map((r) => ({
    id: r.id,
    customer_id: r.customerId,
    kind: r.kind,
    to: r.to,
    subject: r.subject,
    body: r.body,
    created_at: r.createdAt.toISOString(),
  }));
}
