import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";
import { parseEntitlements } from "./entitlements-input.ts";
import { findOwnedProduct } from "./find-owned.ts";

export async function createPlan(prisma: PrismaClient, input: { tenantId: string; productId: string; name: string; entitlements: unknown }) {
  const entitlements = parseEntitlements(input.entitlements);
  await findOwnedProduct(prisma, input.tenantId, input.productId);
  return prisma.plan.create({
    data: {
      id: newId("plan"),
      tenantId: input.tenantId,
      productId: input.productId,
      name: input.name,
      entitlements: entitlements as Prisma.InputJsonValue,
    },
  });
}
