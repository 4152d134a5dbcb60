// Operator: a coupon code, percent or fixed amount, for N cycles (null = forever).
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";

export interface CreateCouponInput {
  tenantId: string;
  code: string;
  percentOff?: number | null;
  amountOffCents?: number | null;
  cycles?: number | null;
  maxRedemptions?: number | null;
}

export async function createCoupon(prisma: PrismaClient, input: CreateCouponInput) {
  const hasPercent = input.percentOff != null;
  if (hasPercent === (input.amountOffCents != null)) throw new AppError("invalid_argument", { error: "give exactly one of percentOff or amountOffCents" });
  if (hasPercent && (!Number.isInteger(input.percentOff) || input.percentOff! < 1 || input.percentOff! > 100)) {
    throw new AppError("invalid_argument", { error: "percentOff must be an integer from 1 to 100" });
  }
  if (!hasPercent && (!Number.isSafeInteger(input.amountOffCents) || input.amountOffCents! < 1)) {
    throw new AppError("invalid_argument", { error: "amountOffCents must be a positive integer" });
  }
  if (input.cycles != null && (!Number.isInteger(input.cycles) || input.cycles < 1)) throw new AppError("invalid_argument", { error: "cycles must be a positive integer" });
  const code = input.code.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) throw new AppError("invalid_argument", { error: "code must be 1-64 letters, digits, _ or -" });
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  const clash = await prisma.coupon.findUnique({ where: { tenantId_code: { tenantId: input.tenantId, code } } });
  if (clash) throw new AppError("conflict", { error: "a coupon with this code already exists" });
  return prisma.coupon.create({
    data: {
      id: newId("coupon"),
      tenantId: input.tenantId,
      code,
      percentOff: input.percentOff ?? null,
      amountOffCents: input.amountOffCents ?? null,
      cycles: input.cycles ?? null,
      maxRedemptions: input.maxRedemptions ?? null,
    },
  });
}
