// Who pays behind one of our references, for the Pagar.me adapter: a Pix order at Pagar.me must name
// its payer (name, e-mail, CPF/CNPJ, phone), and a new Pagar.me customer is better made with them.
// The reference is our cus_ id, or the inv_/ord_ id a charge is for; every read is scoped by tenant.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { GatewayAccountRef } from "./adapter.ts";
import type { PagarmePayer } from "./pagarme-adapter.ts";

export function pagarmePayerLookup(prisma: PrismaClient) {
  return async (account: GatewayAccountRef, reference: string): Promise<PagarmePayer | null> => {
    const tenantId = account.tenantId;
    const select = { name: true, email: true, doc: true, phone: true } as const;
    if (reference.startsWith("cus_")) return prisma.customer.findFirst({ where: { id: reference, tenantId }, select });
    if (reference.startsWith("ord_")) return (await prisma.order.findFirst({ where: { id: reference, tenantId }, select: { customer: { select } } }))?.customer ?? null;
    if (reference.startsWith("inv_")) {
      const invoice = await prisma.invoice.findFirst({ where: { id: reference, tenantId }, select: { subscription: { select: { customer: { select } } } } });
      return invoice?.subscription.customer ?? null;
    }
    return null;
  };
}
