// An invitation to a tenant's team: a single-use link valid 7 days, e-mailed to the invited address;
// the clear link is also returned to the caller, who may show it.
import type { TenantUserRole } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { EMAIL_PATTERN, INVITATION_TTL_MS, normalizeEmail } from "./team-rules.ts";
import { issueTeamLink } from "./issue-team-link.ts";

export interface InviteTenantUserInput {
  tenantId: string;
  email: string;
  role: TenantUserRole;
  /** The service's public base URL: the link points at its /panel/invite/<token>. */
  publicUrl: string;
  /** The member who invites (their e-mail), when it is a member; null or absent for the operator. */
  inviter?: string | null;
}

export interface Invitation {
  url: string;
  email: string;
  role: TenantUserRole;
  expiresAt: Date;
}

export async function inviteTenantUser(runtime: Pick<Runtime, "db" | "gateways">, clock: Clock, input: InviteTenantUserInput): Promise<Invitation> {
  const prisma = runtime.db.prisma;
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 254) throw new AppError("invalid_email");
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true, name: true } });
  if (!tenant) throw notFound("tenant");
  const member = await prisma.tenantUser.findUnique({ where: { tenantId_email: { tenantId: input.tenantId, email } }, select: { passwordHash: true } });
  if (member?.passwordHash) throw new AppError("conflict", { error: "this e-mail is already a member of the team" });
  const { url, expiresAt } = await issueTeamLink(runtime, clock, {
    tenantId: input.tenantId,
    kind: "INVITATION",
    email,
    role: input.role,
    ttlMs: INVITATION_TTL_MS,
    publicUrl: input.publicUrl,
    content: (link) => ({ template: "team_invitation", params: { ...link, tenantName: tenant.name, inviter: input.inviter ?? null, role: input.role } }),
  });
  return { url, email, role: input.role, expiresAt };
}
