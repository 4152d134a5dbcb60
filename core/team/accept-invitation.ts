// Accepting an invitation: the link is spent and the member gets a password, in one transaction. A
// link that expired, was used, or never existed gets the same refusal.
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { passwordWeakness } from "./team-rules.ts";
import { hashPassword, tokenHash } from "./team-secrets.ts";

export interface AcceptInvitationInput {
  token: string;
  password: string;
}

export async function acceptInvitation(runtime: Runtime, clock: Clock, input: AcceptInvitationInput): Promise<{ email: string; tenantId: string }> {
  const link = await findOpenInvitation(runtime, clock, input.token);
  const weakness = passwordWeakness(input.password, link.email);
  if (weakness) throw new AppError("weak_password", { error: weakness });
  const passwordHash = await hashPassword(input.password);
  const now = clock.now();
  await runtime.db.prisma.$transaction(async (tx) => {
    // Spent only if still unspent: two submissions of one link cannot both win.
    const spent = await tx.teamLink.updateMany({ where: { id: link.id, usedAt: null }, data: { usedAt: now } });
    if (spent.count !== 1) throw new AppError("team_link_invalid");
    await tx.tenantUser.upsert({
      where: { tenantId_email: { tenantId: link.tenantId, email: link.email } },
      create: { id: newId("tenantUser"), tenantId: link.tenantId, email: link.email, role: link.role, passwordHash },
      update: { role: link.role, passwordHash, failedSignIns: 0, lockedUntil: null },
    });
  });
  return { email: link.email, tenantId: link.tenantId };
}

/** The invitation behind a token, if it can still be accepted (the panel shows its e-mail first). */
export async function findOpenInvitation(runtime: Runtime, clock: Clock, token: string) {
  const link = token ? await runtime.db.prisma.teamLink.findUnique({ where: { hash: tokenHash(token) } }) : null;
  if (!link || link.kind !== "INVITATION" || link.usedAt || link.expiresAt <= clock.now()) throw new AppError("team_link_invalid");
  return link;
}
