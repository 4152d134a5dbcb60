// Who pays behind one of our references, for the adapters that must name a payer (a Pix order at
// Pagar.me, a Pix payment at Mercado Pago, a Pix PaymentIntent's billing details at Stripe) when the
// checkout did not pass one: our cus_ id, or the inv_/ord_ id a charge is for. Every read is scoped by tenant.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { GatewayAccountRef } from "./adapter.ts";

export interface Payer {
  name: string;
  email: string;
  /** CPF or CNPJ, digits; null when the customer gave none. */
  doc: string | null;
  phone: string | null;
}

export type PayerLookup = (account: GatewayAccountRef, reference: string) => Promise<Payer | null>;

export function payerLookup(prisma: PrismaClient): PayerLookup {
  return async (account, reference) => {
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
