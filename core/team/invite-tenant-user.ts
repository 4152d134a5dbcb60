// An invitation to a tenant's team: a single-use link that expires. Only the token's hash is stored;
// the clear link is returned to the caller, who sends it (the e-mail outbox) or shows it.
import type { PrismaClient, TenantUserRole } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { EMAIL_PATTERN, INVITATION_TTL_MS, normalizeEmail } from "./team-rules.ts";
import { newLinkToken, tokenHash } from "./team-secrets.ts";

export interface InviteTenantUserInput {
  tenantId: string;
  email: string;
  role: TenantUserRole;
  /** The service's public base URL: the link points at its /panel/invite/<token>. */
  publicUrl: string;
}

export interface Invitation {
  url: string;
  email: string;
  role: TenantUserRole;
  expiresAt: Date;
}

export async function inviteTenantUser(prisma: PrismaClient, clock: Clock, input: InviteTenantUserInput): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 254) throw new AppError("invalid_email");
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  const member = await prisma.tenantUser.findUnique({ where: { tenantId_email: { tenantId: input.tenantId, email } }, select: { passwordHash: true } });
  if (member?.passwordHash) throw new AppError("conflict", { error: "this e-mail is already a member of the team" });
  const token = newLinkToken();
  const expiresAt = new Date(clock.now().getTime() + INVITATION_TTL_MS);
  await prisma.teamLink.create({
    data: { id: newId("teamLink"), tenantId: input.tenantId, kind: "INVITATION", hash: tokenHash(token), email, role: input.role, expiresAt },
  });
  return { url: `${input.publicUrl.replace(/\/+$/, "")}/panel/invite/${token}`, email, role: input.role, expiresAt };
}
