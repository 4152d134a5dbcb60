// An owner or admin changes another member's role. Nobody changes their own (no one raises themself,
// and the last owner cannot step down by accident); only an owner gives or takes the owner role, so an
// admin never acts above themself. The new role holds from the member's next request: sessions read
// the role each time.
import type { TenantUserRole } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { listTeamMembers } from "./list-team-members.ts";

export interface ChangeMemberRoleInput {
  tenantId: string;
  actorId: string;
  actorRole: TenantUserRole;
  memberId: string;
  role: TenantUserRole;
}

export async function changeMemberRole(runtime: Pick<Runtime, "db">, input: ChangeMemberRoleInput) {
  const prisma = runtime.db.prisma;
  const member = await prisma.tenantUser.findFirst({ where: { id: input.memberId, tenantId: input.tenantId, passwordHash: { not: null } }, select: { id: true, role: true } });
  if (!member) throw notFound("member");
  if (member.id === input.actorId) throw new AppError("role_forbidden", { error: "você não pode mudar o seu próprio papel" });
  if ((member.role === "OWNER" || input.role === "OWNER") && input.actorRole !== "OWNER") {
    throw new AppError("role_forbidden", { error: "só o proprietário pode dar ou tirar o papel de proprietário" });
  }
  // The caller (not the member) stays an owner whenever an owner changes: the team never loses its last one.
  await prisma.tenantUser.updateMany({ where: { id: member.id, tenantId: input.tenantId }, data: { role: input.role } });
  const rows = await listTeamMembers(prisma, { tenantId: input.tenantId });
  return rows.find((r) => r.id === member.id)!;
}
