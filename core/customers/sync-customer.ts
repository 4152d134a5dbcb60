// Pushes a customer's name, e-mail and phone to every gateway account the customer has used
// (subscriptions, orders, saved cards, payments), after the local change committed. A failure is
// never an error: it becomes the `notice` of the answer, and sending the edit again retries it.
import type { Customer, PrismaClient } from "../../generated/prisma/client.ts";
import { syncCustomer } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import type { Runtime } from "../runtime.ts";

export async function syncCustomerToGateways(runtime: Runtime, customer: Customer, now: Date): Promise<string | null> {
  const prisma = runtime.db.prisma;
  const failures: string[] = [];
  for (const account of await customerGatewayAccounts(prisma, customer)) {
    try {
      const ctx = { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), now };
      const result = await syncCustomer(ctx, { customerId: customer.id, name: customer.name, email: customer.email, phone: customer.phone });
      if (!result.ok) failures.push(`${account.name}: ${result.detailCode}`);
    } catch (err) {
      // An account without a usable adapter, or the event row not written: still not the caller's error.
      runtime.logger.error({ err, tenant_id: customer.tenantId, customer_id: customer.id, gateway_account_id: account.id }, "customer sync failed");
      failures.push(`${account.name}: gateway_error`);
    }
  }
  if (!failures.length) return null;
  return `alteração salva, mas não sincronizada com o gateway (${failures.join("; ")}); reenvie a alteração para tentar de novo`;
}

async function customerGatewayAccounts(prisma: PrismaClient, customer: Customer) {
  const where = { tenantId: customer.tenantId, customerId: customer.id };
  const orders = await prisma.order.findMany({ where, select: { offerId: true }, distinct: ["offerId"] });
  const cards = await prisma.paymentMethod.findMany({ where, select: { gatewayAccountId: true }, distinct: ["gatewayAccountId"] });
  const payments = await prisma.payment.findMany({ where, select: { gatewayAccountId: true }, distinct: ["gatewayAccountId"] });
  return prisma.gatewayAccount.findMany({
    where: {
      tenantId: customer.tenantId,
      OR: [
        { offers: { some: { subscriptions: { some: { customerId: customer.id } } } } },
        { offers: { some: { id: { in: orders.map((o) => o.offerId) } } } },
        { id: { in: [...cards, ...payments].map((r) => r.gatewayAccountId) } },
      ],
    },
    orderBy: { id: "asc" },
  });
}
