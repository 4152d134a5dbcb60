// A member inviting someone from the panel: owners and admins only (the caller's scopes), and only an
// owner may invite another owner, so an admin cannot raise anyone above themself.
import type { TenantUserRole } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { inviteTenantUser, type Invitation } from "./invite-tenant-user.ts";

export async function inviteTeamMember(
  runtime: Pick<Runtime, "db" | "gateways">,
  clock: Clock,
  input: { tenantId: string; inviterRole: TenantUserRole; inviterEmail: string | null; email: string; role: TenantUserRole; publicUrl: string },
): Promise<Invitation> {
  if (input.role === "OWNER" && input.inviterRole !== "OWNER") throw new AppError("role_forbidden", { error: "só o proprietário pode convidar outro proprietário" });
  return inviteTenantUser(runtime, clock, { tenantId: input.tenantId, email: input.email, role: input.role, publicUrl: input.publicUrl, inviter: input.inviterEmail });
}
