// Test-only record factories, until the hosted checkout and billing run create these for real.
import type { SubscriptionStatus } from "../../generated/prisma/client.ts";
import { newId } from "../../core/shared/ids.ts";
import { testService } from "./service.ts";
import type { TestTenant } from "./tenant.ts";

const prisma = async () => (await testService()).runtime.db.prisma;

export async function makeCustomer(t: TestTenant, externalId = `ext-${Math.random().toString(36).slice(2)}`) {
  return (await prisma()).customer.create({
    data: { id: newId("customer"), tenantId: t.tenantId, externalId, email: `${externalId}@example.com`, name: "Maria Silva" },
  });
}

export async function makeSubscription(
  t: TestTenant,
  customerId: string,
  opts: { status?: SubscriptionStatus; offerId?: string; planId?: string; withCard?: boolean; tracking?: Record<string, unknown> } = {},
) {
  const db = await prisma();
  const gatewayAccount = await db.gatewayAccount.findFirstOrThrow({ where: { tenantId: t.tenantId } });
  const pm = opts.withCard === false
    ? null
    : await db.paymentMethod.create({
        data: {
          id: newId("paymentMethod"),
          tenantId: t.tenantId,
          customerId,
          gatewayAccountId: gatewayAccount.id,
          token: `tok_${Math.random().toString(36).slice(2)}`,
          brand: "visa",
          last4: "4242",
          expMonth: 12,
          expYear: 2030,
        },
      });
  return db.subscription.create({
    data: {
      id: newId("subscription"),
      tenantId: t.tenantId,
      customerId,
      offerId: opts.offerId ?? t.monthlyOfferId,
      planId: opts.planId ?? t.planId,
      status: opts.status ?? "ACTIVE",
      collectionMethod: "CARD_AUTO",
      paymentMethodId: pm?.id ?? null,
      currency: "brl",
      currentPeriodStart: new Date("2026-11-01T00:00:00Z"),
      currentPeriodEnd: new Date("2026-12-01T00:00:00Z"),
      // As the service leaves one: a canceled subscription has ended and is never billed again (database CHECK).
      ...(opts.status === "CANCELED" ? { nextBillingAt: null, canceledAt: new Date("2026-11-15T00:00:00Z") } : { nextBillingAt: new Date("2026-12-01T00:00:00Z") }),
      anchorDay: 1,
      tracking: (opts.tracking ?? null) as never,
    },
  });
}

export async function makePayment(t: TestTenant, customerId: string, subscriptionId: string | null, amountCents = 4990) {
  const db = await prisma();
  const gatewayAccount = await db.gatewayAccount.findFirstOrThrow({ where: { tenantId: t.tenantId } });
  const id = newId("payment");
  return db.payment.create({
    data: {
      id,
      tenantId: t.tenantId,
      customerId,
      subscriptionId,
      kind: "RECURRING",
      method: "CARD",
      methodKind: "credit_card",
      amountCents,
      currency: "brl",
      status: "PAID",
      idempotencyKey: `test:${id}`,
      gatewayAccountId: gatewayAccount.id,
      provider: "sandbox",
      gatewayChargeId: `ch_${id.slice(-8)}`,
      cardBrand: "visa",
      cardLast4: "4242",
      paidAt: new Date("2026-11-01T00:00:00Z"),
      items: { create: [{ id: newId("paymentItem"), tenantId: t.tenantId, kind: "plan", amountCents }] },
    },
  });
}

export async function makeGatewayEvents(t: TestTenant, subscriptionId: string, count: number) {
  const db = await prisma();
  await db.gatewayEvent.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      id: newId("gatewayEvent"),
      tenantId: t.tenantId,
      subscriptionId,
      provider: "sandbox",
      kind: "charge_card",
      outcome: i % 2 ? "declined" : "approved",
      code: newId("invoice"),
      gatewayId: `ch_${i}`,
      detailCode: i % 2 ? "insufficient_funds" : "",
      httpStatus: 200,
      amountCents: 4990,
      createdAt: new Date("2026-11-01T00:00:00Z"),
    })),
  });
}

export async function makeEvent(t: TestTenant, type: string, createdAt: Date, data: Record<string, unknown> = {}) {
  const db = await prisma();
  return db.event.create({ data: { id: newId("event"), tenantId: t.tenantId, type, data: data as never, createdAt } });
}

export async function setTenantClock(t: TestTenant, at: Date) {
  const svc = await testService();
  await svc.runtime.db.prisma.tenant.update({ where: { id: t.tenantId }, data: { clockAt: at } });
  await svc.runtime.keyCache.invalidateTenant(t.tenantId);
}
