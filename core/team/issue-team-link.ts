// The one way a single-use team link is made: a random token whose hash alone is stored, and its
// e-mail queued in the same transaction with the link sealed at rest. Invitations and password resets
// differ only in their path, lifetime and e-mail.
import type { TeamLinkKind, TenantUserRole } from "../../generated/prisma/client.ts";
import { queueEmail } from "../emails/queue-email.ts";
import type { EmailContent } from "../emails/templates/email-content.ts";
import { sealTeamLink } from "../emails/team-email-link.ts";
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { newId } from "../shared/ids.ts";
import { newLinkToken, tokenHash } from "./team-secrets.ts";

const PATHS: Record<TeamLinkKind, string> = { INVITATION: "/panel/invite/", PASSWORD_RESET: "/panel/reset/" };

export interface IssueTeamLinkInput {
  tenantId: string;
  kind: TeamLinkKind;
  email: string;
  role: TenantUserRole;
  ttlMs: number;
  /** The service's public base URL. */
  publicUrl: string;
  /** The e-mail that carries the link, given its id, its sealed URL and its expiry. */
  content: (link: { linkId: string; url: string; expiresAt: string }) => EmailContent;
}

/** Answers the clear link (for a caller who may show it) and when it expires. */
export async function issueTeamLink(runtime: Pick<Runtime, "db" | "gateways">, clock: Clock, input: IssueTeamLinkInput): Promise<{ url: string; expiresAt: Date }> {
  const token = newLinkToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + input.ttlMs);
  const id = newId("teamLink");
  const url = `${input.publicUrl.replace(/\/+$/, "")}${PATHS[input.kind]}${token}`;
  await runtime.db.prisma.$transaction(async (tx) => {
    await tx.teamLink.create({ data: { id, tenantId: input.tenantId, kind: input.kind, hash: tokenHash(token), email: input.email, role: input.role, expiresAt } });
    await queueEmail(tx, {
      tenantId: input.tenantId,
      to: input.email,
      sourceKey: id,
      at: now,
      content: input.content({ linkId: id, url: sealTeamLink(runtime.gateways.vault, id, url), expiresAt: expiresAt.toISOString() }),
    });
  });
  return { url, expiresAt };
}
