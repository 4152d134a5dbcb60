// A member's active sessions, newest first, for the sessions page.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { sessionAlive } from "./team-rules.ts";

export async function listPanelSessions(prisma: PrismaClient, clock: Clock, input: { tenantId: string; userId: string; currentSessionId: string }) {
  const now = clock.now();
  const rows = await prisma.panelSession.findMany({
    where: { tenantId: input.tenantId, userId: input.userId, revokedAt: null, pendingCode: false, expiresAt: { gt: now } },
    orderBy: { createdAt: "desc" },
    take: 100,
  });
  return rows
    .filter((s) => sessionAlive(s, now))
    .map((s) => ({ id: s.id, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, userAgent: s.userAgent, address: s.address, current: s.id === input.currentSessionId }));
}
