// Operator: the tenant's referral program (reward and qualification rule). One active program per
// tenant: creating another replaces it (the previous one is deactivated in the same transaction).
// Referrals already created keep their reward snapshot and the qualification rule of their program.
import type { PrismaClient, ReferralProgram } from "../../generated/prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";

/** Reward kinds the service applies; `percent_next` discounts the referrer's next renewals. */
export const REWARD_KINDS = ["percent_next"] as const;

export interface CreateReferralProgramInput {
  tenantId: string;
  reward: { kind: string; value: number; cycles: number };
  qualifyAfterPaidCycles: number;
}

export async function createReferralProgram(prisma: PrismaClient, input: CreateReferralProgramInput): Promise<ReferralProgram> {
  const { kind, value, cycles } = input.reward;
  if (!(REWARD_KINDS as readonly string[]).includes(kind)) throw new AppError("invalid_argument", { error: "reward.kind must be percent_next" });
  if (!Number.isInteger(value) || value < 1 || value > 100) throw new AppError("invalid_argument", { error: "reward.value must be an integer from 1 to 100" });
  if (!Number.isInteger(cycles) || cycles < 1) throw new AppError("invalid_argument", { error: "reward.cycles must be an integer of at least 1" });
  const q = input.qualifyAfterPaidCycles;
  if (!Number.isInteger(q) || q < 1) throw new AppError("invalid_argument", { error: "qualifyAfterPaidCycles must be an integer of at least 1" });
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  return prisma.$transaction(async (tx) => {
    // Serialises two concurrent creations for the tenant: exactly one stays active.
    await tx.$queryRaw`SELECT id FROM tenants WHERE id = ${input.tenantId} FOR UPDATE`;
    await tx.referralProgram.updateMany({ where: { tenantId: input.tenantId, active: true }, data: { active: false } });
    return tx.referralProgram.create({
      data: { id: newId("referralProgram"), tenantId: input.tenantId, rewardKind: kind, rewardValue: value, rewardCycles: cycles, qualifyAfterPaidCycles: q },
    });
  });
}
