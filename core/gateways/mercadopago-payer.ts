// Who pays behind one of our references, for the Mercado Pago adapter: a Pix payment at Mercado Pago must
// name its payer's e-mail. The reference is the inv_/ord_ id a charge is for (or our cus_ id); every read
// is scoped by tenant. The checkout passes the payer itself (no row exists yet).
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { MercadoPagoPayerLookup } from "./mercadopago-adapter.ts";

export function mercadopagoPayerLookup(prisma: PrismaClient): MercadoPagoPayerLookup {
  return async (account, reference) => {
    const tenantId = account.tenantId;
    const select = { name: true, email: true } as const;
    if (reference.startsWith("cus_")) return prisma.customer.findFirst({ where: { id: reference, tenantId }, select });
    if (reference.startsWith("ord_")) return (await prisma.order.findFirst({ where: { id: reference, tenantId }, select: { customer: { select } } }))?.customer ?? null;
    if (reference.startsWith("inv_")) {
      const invoice = await prisma.invoice.findFirst({ where: { id: reference, tenantId }, select: { subscription: { select: { customer: { select } } } } });
      return invoice?.subscription.customer ?? null;
    }
    return null;
  };
}
