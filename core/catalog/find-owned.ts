// Loads a catalogue record of one tenant; another tenant's record is not found.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";

export async function findOwnedPlan(prisma: PrismaClient, tenantId: string, planId: string) {
  const plan = await prisma.plan.findFirst({ where: { id: planId, tenantId } });
  if (!plan) throw notFound("plan");
  return plan;
}

export async function findOwnedProduct(prisma: PrismaClient, tenantId: string, productId: string) {
  const product = await prisma.product.findFirst({ where: { id: productId, tenantId } });
  if (!product) throw notFound("product");
  return product;
}
