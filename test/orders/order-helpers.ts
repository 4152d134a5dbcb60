// Helpers for one-time offers and orders: the operator mutation and the order's events.
import { op } from "../helpers/http.ts";
import type { TestTenant } from "../helpers/tenant.ts";

export async function oneTimeOffer(t: TestTenant, opts: { unitPriceCents?: number; grantDays?: number; renews?: boolean; gateway?: string } = {}): Promise<string> {
  const data = await op(
    `mutation($t: ID!, $p: ID!, $c: Int!, $g: Int!, $r: Boolean, $gw: String!) {
      createOneTimeOffer(tenantId: $t, planId: $p, name: "Pacote", unitPriceCents: $c, currency: "brl", gateway: $gw, grantDays: $g, renewsSubscription: $r) { id } }`,
    { t: t.tenantId, p: t.planId, c: opts.unitPriceCents ?? 1500, g: opts.grantDays ?? 30, r: opts.renews ?? false, gw: opts.gateway ?? "sandbox" },
  );
  return data.createOneTimeOffer.id;
}

/** A sandbox gateway account with the given capability overrides; returns its gwa_ id. */
export async function gatewayAccount(t: TestTenant, capabilities: Record<string, unknown>): Promise<string> {
  const data = await op(
    `mutation($t: ID!, $c: JSON) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: "custom", capabilities: $c) { id } }`,
    { t: t.tenantId, c: capabilities },
  );
  return data.createGatewayAccount.id;
}
