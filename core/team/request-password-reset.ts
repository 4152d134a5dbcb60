// A password reset: a single-use link for one account, valid an hour. The caller sends it (the e-mail
// outbox) to the account's own address and never shows it to whoever asked: the answer to the form is
// the same whether or not the e-mail belongs to anyone.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { newId } from "../shared/ids.ts";
import { normalizeEmail, PASSWORD_RESET_TTL_MS } from "./team-rules.ts";
import { newLinkToken, tokenHash } from "./team-secrets.ts";

export interface PasswordResetLink {
  tenantId: string;
  email: string;
  url: string;
  expiresAt: Date;
}

/** One link per account holding the e-mail (an e-mail may be in several teams); none for an unknown e-mail. */
export async function requestPasswordReset(prisma: PrismaClient, clock: Clock, input: { email: string; publicUrl: string }): Promise<PasswordResetLink[]> {
  const email = normalizeEmail(input.email);
  if (!email) return [];
  const users = await prisma.tenantUser.findMany({ where: { email, passwordHash: { not: null }, tenant: { suspended: false } }, select: { tenantId: true, role: true }, take: 5 });
  const expiresAt = new Date(clock.now().getTime() + PASSWORD_RESET_TTL_MS);
  const links: PasswordResetLink[] = [];
  for (const user of users) {
    const token = newLinkToken();
    await prisma.teamLink.create({
      data: { id: newId("teamLink"), tenantId: user.tenantId, kind: "PASSWORD_RESET", hash: tokenHash(token), email, role: user.role, expiresAt },
    });
    links.push({ tenantId: user.tenantId, email, url: `${input.publicUrl.replace(/\/+$/, "")}/panel/reset/${token}`, expiresAt });
  }
  return links;
}
