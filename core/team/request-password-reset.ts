// A password reset: a single-use link for one account, valid an hour. It is queued in the e-mail outbox
// (sealed) to the account's own address in the link's transaction, and never shown to whoever asked:
// the answer to the form is the same whether or not the e-mail belongs to anyone.
import { queueEmail } from "../emails/queue-email.ts";
import { sealTeamLink } from "../emails/team-email-link.ts";
import type { Runtime } from "../runtime.ts";
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
export async function requestPasswordReset(
  runtime: Pick<Runtime, "db" | "gateways">,
  clock: Clock,
  input: { email: string; publicUrl: string },
): Promise<PasswordResetLink[]> {
  const prisma = runtime.db.prisma;
  const email = normalizeEmail(input.email);
  if (!email) return [];
  const users = await prisma.tenantUser.findMany({ where: { email, passwordHash: { not: null }, tenant: { suspended: false } }, select: { tenantId: true, role: true, tenant: { select: { name: true } } }, take: 5 });
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  const links: PasswordResetLink[] = [];
  for (const user of users) {
    const token = newLinkToken();
    const id = newId("teamLink");
    const url = `${input.publicUrl.replace(/\/+$/, "")}/panel/reset/${token}`;
    await prisma.$transaction(async (tx) => {
      await tx.teamLink.create({ data: { id, tenantId: user.tenantId, kind: "PASSWORD_RESET", hash: tokenHash(token), email, role: user.role, expiresAt } });
      await queueEmail(tx, {
        tenantId: user.tenantId,
        to: email,
        sourceKey: id,
        at: now,
        content: {
          template: "password_reset",
          params: { linkId: id, url: sealTeamLink(runtime.gateways.vault, id, url), expiresAt: expiresAt.toISOString(), tenantName: user.tenant.name },
        },
      });
    });
    links.push({ tenantId: user.tenantId, email, url, expiresAt });
  }
  return links;
}
