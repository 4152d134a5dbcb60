// An owner or admin removes another member: their sessions end at once and their account is gone, so
// the e-mail can be invited again later. The same guards as a role change: not oneself, and only an
// owner removes an owner.
import type { TenantUserRole } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";

export interface RemoveTeamMemberInput {
  tenantId: string;
  actorId: string;
  actorRole: TenantUserRole;
  memberId: string;
}

export async function removeTeamMember(runtime: Pick<Runtime, "db">, input: RemoveTeamMemberInput): Promise<{ id: string; email: string }> {
  const prisma = runtime.db.prisma;
  const member = await prisma.tenantUser.findFirst({ where: { id: input.memberId, tenantId: input.tenantId, passwordHash: { not: null } }, select: { id: true, role: true, email: true } });
  if (!member) throw notFound("member");
  if (member.id === input.actorId) throw new AppError("role_forbidden", { error: "você não pode remover a si mesmo da equipe" });
  if (member.role === "OWNER" && input.actorRole !== "OWNER") throw new AppError("role_forbidden", { error: "só o proprietário pode remover outro proprietário" });
  await prisma.$transaction([
    prisma.panelSession.deleteMany({ where: { tenantId: input.tenantId, userId: member.id } }),
    prisma.tenantUser.deleteMany({ where: { id: member.id, tenantId: input.tenantId } }),
  ]);
  return { id: member.id, email: member.email };
}
