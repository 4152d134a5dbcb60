// Operator: a renewal campaign. A recurring offer of the tenant, the campaign price of one early
// cycle, a bonus (bonus_cycles of day, month or year) added on payment, an optional start on the
// tenant clock, and the audience (see audienceTarget in campaign-rules.ts).
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId, newId } from "../shared/ids.ts";
import { AUDIENCE_STATUSES, BONUS_UNITS, type Audience } from "./campaign-rules.ts";

export interface CreateRenewalCampaignInput {
  tenantId: string;
  offerId: string;
  priceCents: number;
  bonusCycles: number;
  bonusUnit: string;
  startsAt?: Date | null;
  audience?: Partial<Audience> | null;
}

const INT32_MAX = 2 ** 31 - 1;

export async function createRenewalCampaign(prisma: PrismaClient, input: CreateRenewalCampaignInput) {
  if (!Number.isSafeInteger(input.priceCents) || input.priceCents < 1 || input.priceCents > INT32_MAX) {
    throw new AppError("invalid_argument", { error: "priceCents must be an integer of at least 1" });
  }
  if (!Number.isSafeInteger(input.bonusCycles) || input.bonusCycles < 0 || input.bonusCycles > 1000) {
    throw new AppError("invalid_argument", { error: "bonusCycles must be an integer from 0 to 1000" });
  }
  const bonusUnit = input.bonusUnit.trim().toLowerCase();
  if (!(BONUS_UNITS as readonly string[]).includes(bonusUnit)) throw new AppError("invalid_argument", { error: "bonusUnit must be day, month or year" });
  const statuses = [...new Set(input.audience?.statuses ?? [])];
  const refused = statuses.filter((s) => !(AUDIENCE_STATUSES as readonly string[]).includes(s));
  if (refused.length) {
    throw new AppError("invalid_argument", { error: `audience.statuses may hold trialing, active, past_due or suspended (no period to extend: ${refused.join(", ").toLowerCase()})` });
  }
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  const offer = isId("offer", input.offerId) ? await prisma.offer.findFirst({ where: { id: input.offerId, tenantId: input.tenantId } }) : null;
  if (!offer) throw notFound("offer");
  if (offer.kind !== "RECURRING") throw new AppError("invalid_argument", { error: "a renewal campaign needs a recurring offer" });
  const planIds = [...new Set(input.audience?.planIds ?? [])];
  if (planIds.length) {
    const known = await prisma.plan.count({ where: { tenantId: input.tenantId, id: { in: planIds } } });
    if (known !== planIds.length) throw new AppError("invalid_argument", { error: "audience.planIds names a plan that is not of this tenant" });
  }
  const customerExternalIds = [...new Set((input.audience?.customerExternalIds ?? []).map((e) => e.trim()).filter(Boolean))];
  const audience: Audience = { statuses, planIds, customerExternalIds };
  return prisma.renewalCampaign.create({
    data: {
      id: newId("renewalCampaign"),
      tenantId: input.tenantId,
      offerId: offer.id,
      priceCents: input.priceCents,
      bonusCycles: input.bonusCycles,
      bonusUnit,
      startsAt: input.startsAt ?? null,
      audience: audience as object,
    },
  });
}
