// A password reset: a single-use link for one account, valid an hour, e-mailed to the account's own
// address and never shown to whoever asked:
// the answer to the form is the same whether or not the e-mail belongs to anyone.
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { normalizeEmail, PASSWORD_RESET_TTL_MS } from "./team-rules.ts";
import { issueTeamLink } from "./issue-team-link.ts";

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
  const links: PasswordResetLink[] = [];
  for (const user of users) {
    const { url, expiresAt } = await issueTeamLink(runtime, clock, {
      tenantId: user.tenantId,
      kind: "PASSWORD_RESET",
      email,
      role: user.role,
      ttlMs: PASSWORD_RESET_TTL_MS,
      publicUrl: input.publicUrl,
      content: (link) => ({ template: "password_reset", params: { ...link, tenantName: user.tenant.name } }),
    });
    links.push({ tenantId: user.tenantId, email, url, expiresAt });
  }
  return links;
}
