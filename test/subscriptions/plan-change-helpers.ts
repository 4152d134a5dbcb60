// Shared set-up of the plan-change tests: offers on the tenant's plan, extra gateway accounts.
import { makeOffer } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import type { TestTenant } from "../helpers/tenant.ts";

export const changePlan = (t: TestTenant, subId: string, body: unknown, key = t.writeKey) => post(`/v1/subscriptions/${subId}/change-plan`, key, body);
export const cancelPlanChange = (t: TestTenant, subId: string, key = t.writeKey) => post(`/v1/subscriptions/${subId}/cancel-plan-change`, key);

export async function gatewayAccount(t: TestTenant, name: string, capabilities: Record<string, unknown> = {}): Promise<string> {
  const data = await op(`mutation($t: ID!, $n: String!, $c: JSON) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: $n, capabilities: $c) { id } }`, {
    t: t.tenantId,
    n: name,
    c: capabilities,
  });
  return data.createGatewayAccount.id;
}

export async function offerOn(t: TestTenant, gateway: string, priceCents: number, interval: "MONTH" | "YEAR" = "MONTH"): Promise<string> {
  const data = await op(
    `mutation($t: ID!, $p: ID!, $i: BillingInterval!, $c: Int!, $g: String!) {
      createOffer(tenantId: $t, planId: $p, name: "Other", interval: $i, priceCents: $c, currency: "brl", gateway: $g,
                  collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
    { t: t.tenantId, p: t.planId, i: interval, c: priceCents, g: gateway },
  );
  return data.createOffer.id;
}

export { makeOffer };
