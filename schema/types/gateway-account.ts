// A tenant's gateway account. Its credentials are never a field: only their masked hints
// (sk_live_...4242) and the id of the key that sealed them.
import { CredentialsVault } from "../../core/gateways/credentials-vault.ts";
import type { GatewayProvider } from "../../core/gateways/capabilities.ts";
import { getGatewayNoticeUrl } from "../../core/gateways/get-gateway-notice-url.ts";
import { listGatewayAccounts } from "../../core/gateways/list-gateway-accounts.ts";
import { maskNoticeUrl } from "../../core/gateways/notice-token.ts";
import { builder } from "../builder.ts";
import { grantsOf } from "../scopes.ts";

export const GatewayProviderEnum = builder.enumType("GatewayProvider", {
  description: "The payment provider behind a gateway account.",
  values: {
    SANDBOX: { value: "sandbox", description: "The built-in sandbox: test cards, no credentials." },
    STRIPE: { value: "stripe", description: "Stripe (card and Pix in Brazil)." },
    PAGARME: { value: "pagarme", description: "Pagar.me (adapter not in this version yet)." },
    MERCADOPAGO: { value: "mercadopago", description: "Mercado Pago (adapter not in this version yet)." },
  } as const,
});

builder.prismaObject("GatewayAccount", {
  description: "A tenant's account on a payment provider, with its capability record. Credentials are never returned, only masked hints.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "gwa_ id." }),
    provider: t.field({ type: GatewayProviderEnum, description: "The provider.", resolve: (a) => a.provider as GatewayProvider }),
    name: t.exposeString("name", { description: "Name unique within the tenant." }),
    capabilities: t.expose("capabilities", { type: "JSON", description: "Capability record of the adapter for this account." }),
    isDefault: t.exposeBoolean("isDefault", { description: "The account the provider's name means in createOffer's gateway." }),
    credentialHints: t.expose("credentialHints", {
      type: "JSON",
      description: "A masked hint per credential field, e.g. {\"secretKey\": \"sk_live_...4242\"}; never the secret.",
    }),
    credentialsKeyId: t.string({
      nullable: true,
      description: "Id of the key that sealed the credentials (first 8 hex of its SHA-256), for key rotation; null without credentials.",
      select: { credentialsCiphertext: true },
      resolve: (a) => (a.credentialsCiphertext ? CredentialsVault.keyIdOf(a.credentialsCiphertext) : null),
    }),
    credentialsUpdatedAt: t.expose("credentialsUpdatedAt", { type: "DateTime", nullable: true, description: "When the credentials were last set." }),
    credentialsRefusedAt: t.expose("credentialsRefusedAt", {
      type: "DateTime",
      nullable: true,
      description: "When the provider last refused these credentials (its 401); null once new credentials are set.",
    }),
    webhookUrl: t.string({
      nullable: true,
      description:
        "The address to register at the provider for its notices (POST). For a provider that signs nothing (Pagar.me) it carries the account's " +
        "secret token (?token=…): notices without it are refused, so keep it secret. An account made before tokens shows its plain " +
        "address (still heard) until its credentials are updated once. Null for sandbox. A tenant caller who may not manage " +
        "gateways (an API key, a panel member below developer) sees the token masked.",
      select: { id: true, tenantId: true, provider: true },
      resolve: async (a, _args, ctx) => {
        const url = await getGatewayNoticeUrl(ctx.runtime, a);
        return url && ctx.actor.kind === "tenant" && !grantsOf(ctx.actor).developer ? maskNoticeUrl(url) : url;
      },
    }),
    apiBaseUrl: t.exposeString("apiBaseUrl", { nullable: true, description: "The provider's base URL replaced by a loopback one (tests); null = the provider's own." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
  }),
});

builder.queryFields((t) => ({
  gatewayAccounts: t.prismaField({
    type: ["GatewayAccount"],
    description: "A tenant's gateway accounts, oldest first (operator). Credentials appear as masked hints only.",
    authScopes: { operator: true },
    args: { tenantId: t.arg.id({ required: true, description: "tn_ id." }) },
    resolve: (_q, _r, args, ctx) => listGatewayAccounts(ctx.db.prisma, String(args.tenantId)),
  }),
}));
