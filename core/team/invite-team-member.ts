// A member inviting someone from the panel: owners and admins only (the caller's scopes), and only an
// owner may invite another owner, so an admin cannot raise anyone above themself.
import type { PrismaClient, TenantUserRole } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { inviteTenantUser, type Invitation } from "./invite-tenant-user.ts";

export async function inviteTeamMember(
  prisma: PrismaClient,
  clock: Clock,
  input: { tenantId: string; inviterRole: TenantUserRole; email: string; role: TenantUserRole; publicUrl: string },
): Promise<Invitation> {
  if (input.role === "OWNER" && input.inviterRole !== "OWNER") throw new AppError("role_forbidden", { error: "só o proprietário pode convidar outro proprietário" });
  return inviteTenantUser(prisma, clock, { tenantId: input.tenantId, email: input.email, role: input.role, publicUrl: input.publicUrl });
}
