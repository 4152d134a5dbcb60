// A fresh tenant per test, built through the operator's GraphQL mutations.
import { op } from "./http.ts";

export interface TestTenant {
  tenantId: string;
  writeKey: string;
  readKey: string;
  productId: string;
  planId: string;
  monthlyOfferId: string;
  yearlyOfferId: string;
}

/**
 * A LIVE tenant sells only with a legal name and CNPJ on its profile: newTenant sets them, unless
 * `withoutProfile` (the tests of that gate).
 */
export async function newTenant(opts: { mode?: "LIVE" | "SANDBOX"; entitlements?: Record<string, unknown>; withoutProfile?: boolean } = {}): Promise<TestTenant> {
  const { createTenant } = await op(`mutation($n: String!, $m: TenantMode!) { createTenant(name: $n, mode: $m) { id } }`, {
    n: `t-${Math.random().toString(36).slice(2)}`,
    m: opts.mode ?? "SANDBOX",
  });
  const tenantId: string = createTenant.id;
  if (opts.mode === "LIVE" && !opts.withoutProfile) {
    await op(`mutation($t: ID!) { updateTenantProfile(tenantId: $t, input: { legalName: "Loja Teste Ltda.", cnpj: "11222333000181" }) { id } }`, { t: tenantId });
  }
  const key = async (scope: string) =>
    (await op(`mutation($t: ID!, $s: KeyScope!) { createApiKey(tenantId: $t, scope: $s) { key } }`, { t: tenantId, s: scope })).createApiKey.key as string;
  const { createProduct } = await op(`mutation($t: ID!) { createProduct(tenantId: $t, name: "App") { id } }`, { t: tenantId });
  const { createPlan } = await op(`mutation($t: ID!, $p: ID!, $e: JSON!) { createPlan(tenantId: $t, productId: $p, name: "Pro", entitlements: $e) { id } }`, {
    t: tenantId,
    p: createProduct.id,
    e: opts.entitlements ?? { seats: 5, reports: true },
  });
  const offer = async (interval: string, price: number) =>
    (
      await op(
        `mutation($t: ID!, $p: ID!, $i: BillingInterval!, $c: Int!) {
          createOffer(tenantId: $t, planId: $p, name: "Pro", interval: $i, priceCents: $c, currency: "BRL", gateway: "sandbox",
                      collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
        { t: tenantId, p: createPlan.id, i: interval, c: price },
      )
    ).createOffer.id as string;
  return {
    tenantId,
    writeKey: await key("WRITE"),
    readKey: await key("READ"),
    productId: createProduct.id,
    planId: createPlan.id,
    monthlyOfferId: await offer("MONTH", 4990),
    yearlyOfferId: await offer("YEAR", 49900),
  };
}
