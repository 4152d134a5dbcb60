// Signing out: this session only, or every session of the member ("sign out everywhere").
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";

export async function signOut(prisma: PrismaClient, clock: Clock, input: { tenantId: string; sessionId: string; everywhere: boolean; userId: string }): Promise<number> {
  const where = input.everywhere ? { tenantId: input.tenantId, userId: input.userId } : { tenantId: input.tenantId, id: input.sessionId };
  const done = await prisma.panelSession.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: clock.now() } });
  return done.count;
}
