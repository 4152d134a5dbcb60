// Using a password-reset link: a new password, the link spent, the account unlocked and every session
// of the account ended (whoever knew the old password is signed out), in one transaction.
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { passwordWeakness } from "./team-rules.ts";
import { hashPassword, tokenHash } from "./team-secrets.ts";

export async function resetPassword(runtime: Runtime, clock: Clock, input: { token: string; password: string }): Promise<{ email: string }> {
  const prisma = runtime.db.prisma;
  const now = clock.now();
  const link = input.token ? await prisma.teamLink.findUnique({ where: { hash: tokenHash(input.token) } }) : null;
  if (!link || link.kind !== "PASSWORD_RESET" || link.usedAt || link.expiresAt <= now) throw new AppError("team_link_invalid");
  const weakness = passwordWeakness(input.password, link.email);
  if (weakness) throw new AppError("weak_password", { error: weakness });
  const passwordHash = await hashPassword(input.password);
  await prisma.$transaction(async (tx) => {
    const spent = await tx.teamLink.updateMany({ where: { id: link.id, usedAt: null }, data: { usedAt: now } });
    if (spent.count !== 1) throw new AppError("team_link_invalid");
    const user = await tx.tenantUser.update({
      where: { tenantId_email: { tenantId: link.tenantId, email: link.email } },
      data: { passwordHash, failedSignIns: 0, lockedUntil: null },
      select: { id: true },
    });
    await tx.panelSession.updateMany({ where: { tenantId: link.tenantId, userId: user.id, revokedAt: null }, data: { revokedAt: now } });
  });
  return { email: link.email };
}
