// Operator: a new tenant. A SANDBOX tenant's clock starts at the wall clock's current instant.
import type { PrismaClient, TenantMode } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { newId } from "../shared/ids.ts";

export interface CreateTenantInput {
  name: string;
  mode: TenantMode;
}

export async function createTenant(prisma: PrismaClient, clock: Clock, input: CreateTenantInput) {
  return prisma.tenant.create({
    data: { id: newId("tenant"), name: input.name, mode: input.mode, clockAt: input.mode === "SANDBOX" ? clock.now() : null },
  });
}
