// Operator: turns a renewal campaign off (or back on). An inactive campaign hands out no link
// (404 on GET …/link) and its open links stop taking payments on /pay; paid links stay paid.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

export async function setRenewalCampaignActive(prisma: PrismaClient, input: { id: string; active: boolean }) {
  if (!isId("renewalCampaign", input.id)) throw notFound("campaign");
  const found = await prisma.renewalCampaign.findUnique({ where: { id: input.id }, select: { id: true } });
  if (!found) throw notFound("campaign");
  return prisma.renewalCampaign.update({ where: { id: input.id }, data: { active: input.active } });
}
