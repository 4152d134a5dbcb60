// Clean-up of the panel's sign-in records: sessions that ended (signed out, idle or past their
// absolute expiry) and invitation or reset links that expired or were used. Each is kept a week after
// it ended, so a member's "where was I signed in" question can still be answered, then deleted.
import type { Runtime } from "../runtime.ts";
import { SESSION_IDLE_MS } from "./team-rules.ts";

export const ENDED_KEPT_MS = 7 * 24 * 60 * 60_000;

export async function expirePanelSessions(runtime: Pick<Runtime, "db" | "wallClock">): Promise<{ sessions: number; links: number }> {
  const prisma = runtime.db.prisma;
  // Sign-in records are transport time: the wall clock, never a sandbox tenant's clock.
  const before = new Date(runtime.wallClock.now().getTime() - ENDED_KEPT_MS);
  const sessions = await prisma.panelSession.deleteMany({
    where: { OR: [{ revokedAt: { lt: before } }, { expiresAt: { lt: before } }, { lastSeenAt: { lt: new Date(before.getTime() - SESSION_IDLE_MS) } }] },
  });
  const links = await prisma.teamLink.deleteMany({ where: { OR: [{ expiresAt: { lt: before } }, { usedAt: { lt: before } }] } });
  return { sessions: sessions.count, links: links.count };
}
