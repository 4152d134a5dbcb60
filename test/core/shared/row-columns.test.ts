// The column lists of core/shared/row-columns.ts read a row exactly as Prisma's model read does:
// every field, same names, same values (a column added to the model and not to the list fails here).
import { describe, expect, it } from "vitest";
import { sqlQuery } from "../../../prisma/direct-sql.ts";
import { customerColumns, gatewayAccountColumns, invoiceColumns, paymentColumns, paymentMethodColumns, subscriptionColumns } from "../../../core/shared/row-columns.ts";
import { testService } from "../../helpers/service.ts";
import { readSubscriptionDetails } from "../../../core/payloads/read-subscription-details.ts";
import { subscriptionDetailInclude } from "../../../core/payloads/subscription-payload.ts";
import { newTenant } from "../../helpers/tenant.ts";
import { subscribe } from "../../helpers/billing.ts";

describe("row column lists", () => {
  it("read subscriptions, invoices, payment methods and gateway accounts as Prisma does", async () => {
    const { runtime } = await testService();
    const prisma = runtime.db.prisma;
    const t = await newTenant();
    const { subscription_id: subscriptionId } = await subscribe(t.monthlyOfferId, { utm_source: "news" });
    const sub = await prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId! } });
    const [raw] = await sqlQuery(prisma, `SELECT ${subscriptionColumns("s")} FROM subscriptions s WHERE s.id = $1`, [subscriptionId]);
    expect(raw).toEqual(sub);
    const invoice = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId } });
    expect((await sqlQuery(prisma, `SELECT ${invoiceColumns()} FROM invoices WHERE id = $1`, [invoice.id]))[0]).toEqual(invoice);
    const pm = await prisma.paymentMethod.findUniqueOrThrow({ where: { id: sub.paymentMethodId! } });
    expect((await sqlQuery(prisma, `SELECT ${paymentMethodColumns("pm")} FROM payment_methods pm WHERE pm.id = $1`, [pm.id]))[0]).toEqual(pm);
    const account = await prisma.gatewayAccount.findUniqueOrThrow({ where: { id: pm.gatewayAccountId } });
    expect((await sqlQuery(prisma, `SELECT ${gatewayAccountColumns()} FROM gateway_accounts WHERE id = $1`, [account.id]))[0]).toEqual(account);
    const payment = await prisma.payment.findFirstOrThrow({ where: { subscriptionId } });
    expect((await sqlQuery(prisma, `SELECT ${paymentColumns()} FROM payments WHERE id = $1`, [payment.id]))[0]).toEqual(payment);
    // The event data's read, with a scheduled plan change, a coupon and a last payment in it.
    const coupon = await prisma.coupon.create({ data: { id: `cpn_${subscriptionId}`, tenantId: t.tenantId, code: `C${Date.now()}`, percentOff: 10, cycles: 3 } });
    await prisma.couponRedemption.create({ data: { id: `red_${subscriptionId}`, tenantId: t.tenantId, couponId: coupon.id, customerId: sub.customerId, subscriptionId: subscriptionId!, cyclesRemaining: 2 } });
    await prisma.subscription.update({ where: { id: subscriptionId! }, data: { pendingOfferId: t.yearlyOfferId, pendingOfferEffectiveAt: sub.currentPeriodEnd } });
    const viaPrisma = await prisma.subscription.findMany({ where: { id: { in: [subscriptionId!] } }, include: subscriptionDetailInclude });
    const direct = await prisma.$transaction((tx) => readSubscriptionDetails(tx, [subscriptionId!]));
    expect(direct).toEqual(viaPrisma);
    expect(direct[0]!.redemptions).toHaveLength(1);
    expect(direct[0]!.pendingOffer?.id).toBe(t.yearlyOfferId);
    expect(direct[0]!.lastPayment?.id).toBeTruthy();
    // And inside a transaction, on its own connection.
    const inTx = await prisma.$transaction((tx) => sqlQuery(tx, `SELECT ${subscriptionColumns()} FROM subscriptions WHERE id = $1`, [subscriptionId]));
    expect(inTx[0]).toEqual(await prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId! } }));
    // Each model's every scalar field is in its list.
    const fieldsOf = (model: string) => Object.keys((prisma as unknown as Record<string, { fields: Record<string, unknown> }>)[model]!.fields);
    const aliases = (list: string) => [...list.matchAll(/AS "(\w+)"/g)].map((m) => m[1]).sort();
    expect(aliases(subscriptionColumns())).toEqual(fieldsOf("subscription").sort());
    expect(aliases(invoiceColumns())).toEqual(fieldsOf("invoice").sort());
    expect(aliases(paymentMethodColumns())).toEqual(fieldsOf("paymentMethod").sort());
    expect(aliases(gatewayAccountColumns())).toEqual(fieldsOf("gatewayAccount").sort());
    expect(aliases(paymentColumns())).toEqual(fieldsOf("payment").sort());
    expect(aliases(customerColumns())).toEqual(fieldsOf("customer").sort());
  });
});
