// The one INSERT of a gateway account, shared by createGatewayAccount and the sandbox account that
// createOffer's `gateway: "sandbox"` makes on first use. The first account of a provider in a tenant
// becomes that provider's default; a name already taken is a 409.
import { Prisma, type GatewayAccount, type PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";

export type GatewayAccountInsert = Omit<Prisma.GatewayAccountUncheckedCreateInput, "isDefault">;

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";

export async function insertGatewayAccount(prisma: PrismaClient, data: GatewayAccountInsert & { id: string; tenantId: string; provider: string; name: string }): Promise<GatewayAccount> {
  const taken = () => new AppError("conflict", { error: `a gateway account named ${JSON.stringify(data.name)} exists in this tenant` });
  const hasDefault = await prisma.gatewayAccount.count({ where: { tenantId: data.tenantId, provider: data.provider, isDefault: true } });
  try {
    return await prisma.gatewayAccount.create({ data: { ...data, isDefault: hasDefault === 0 } });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if (await prisma.gatewayAccount.count({ where: { tenantId: data.tenantId, name: data.name } })) throw taken();
    // Another account became the default meanwhile (partial unique index): this one is not.
    try {
      return await prisma.gatewayAccount.create({ data: { ...data, isDefault: false } });
    } catch (again) {
      if (isUniqueViolation(again)) throw taken();
      throw again;
    }
  }
}
