// A member's gateway accounts (the panel): read by every member of the tenant, connected, re-keyed and
// made default by those with the `developer` scope (owner, admin, developer). The tenant is always the
// actor's; another tenant's account id answers not_found. The operator's mutations (gateway-accounts.ts)
// are unchanged. Credentials go in, never out: answers carry masked hints only.
import { z } from "zod";
import { createGatewayAccount } from "../../core/gateways/create-gateway-account.ts";
import { getGatewayAccount } from "../../core/gateways/get-gateway-account.ts";
import { listGatewayAccounts } from "../../core/gateways/list-gateway-accounts.ts";
import { PROVIDER_SETUP, type CredentialFieldSetup, type ProviderSetup } from "../../core/gateways/provider-setup.rules.ts";
import { setDefaultGatewayAccount } from "../../core/gateways/set-default-gateway-account.ts";
import { updateGatewayAccountCredentials } from "../../core/gateways/update-gateway-account-credentials.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { GatewayProviderEnum } from "../types/gateway-account.ts";

const member = { $all: { user: true, tenant: true } } as const;
const developer = { developer: true } as const;

const CredentialFieldSetupRef = builder.objectRef<CredentialFieldSetup>("GatewayCredentialField").implement({
  description: "One credential field a provider's account takes.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "The field's name in `credentials`, e.g. secretKey." }),
    secret: t.exposeBoolean("secret", { description: "A secret (never shown back); false for a public key." }),
    required: t.exposeBoolean("required", { description: "Needed to connect; an optional field can be added later." }),
    shape: t.exposeString("shape", { description: "The shape the provider gives it (pt-BR), e.g. \"sk_live_… ou sk_test_…\"." }),
  }),
});

const ProviderSetupRef = builder.objectRef<ProviderSetup>("GatewayProviderSetup").implement({
  description: "What connecting a provider takes: its credential fields and the notice events to enable there.",
  fields: (t) => ({
    provider: t.field({ type: GatewayProviderEnum, description: "The provider.", resolve: (p) => p.provider }),
    credentialFields: t.field({ type: [CredentialFieldSetupRef], description: "The credential fields, in the order to ask for them.", resolve: (p) => p.credentialFields }),
    noticeEvents: t.exposeStringList("noticeEvents", { description: "Event types to enable at the provider for the account's webhookUrl; empty for sandbox." }),
    noticeUrlHasToken: t.exposeBoolean("noticeUrlHasToken", { description: "The webhookUrl carries a secret token (the provider signs nothing): keep it secret." }),
  }),
});

const GatewaySetupRef = builder.objectRef<{ providers: readonly ProviderSetup[]; baseUrlOverrideAllowed: boolean }>("GatewaySetup").implement({
  description: "How gateway accounts are connected on this service.",
  fields: (t) => ({
    providers: t.field({ type: [ProviderSetupRef], description: "Every provider, real ones first.", resolve: (s) => [...s.providers] }),
    baseUrlOverrideAllowed: t.exposeBoolean("baseUrlOverrideAllowed", { description: "GATEWAY_ALLOW_BASE_URL_OVERRIDE: apiBaseUrl (a loopback fake) is accepted. Tests only." }),
  }),
});

builder.queryFields((t) => ({
  gatewaySetup: t.field({
    type: GatewaySetupRef,
    description: "What connecting each provider takes (credential fields, notice events), for the operator and the tenant's members.",
    authScopes: { $any: { operator: true, tenant: true } },
    resolve: (_r, _a, ctx) => ({ providers: PROVIDER_SETUP, baseUrlOverrideAllowed: ctx.runtime.config.allowGatewayBaseUrlOverride === true }),
  }),
  ownGatewayAccounts: t.prismaField({
    type: ["GatewayAccount"],
    description: "The signed-in member's tenant's gateway accounts, oldest first. Credentials appear as masked hints only.",
    authScopes: member,
    resolve: (_q, _r, _a, ctx) => listGatewayAccounts(ctx.db.prisma, tenantIdFor(ctx)),
  }),
  ownGatewayAccount: t.prismaField({
    type: "GatewayAccount",
    description: "One gateway account of the signed-in member's tenant; another tenant's id is not_found, like an unknown one.",
    authScopes: member,
    args: { id: t.arg.id({ required: true, description: "gwa_ id." }) },
    resolve: (_q, _r, args, ctx) => getGatewayAccount(ctx.db.prisma, { tenantId: tenantIdFor(ctx), id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  connectGateway: t.prismaField({
    type: "GatewayAccount",
    description:
      "A member (developer, admin, owner) connects a provider account to their own tenant: the credentials are checked live with the provider, " +
      "then stored encrypted (answers carry masked hints only); the first account of a provider becomes its default. A refusal is gateway_credentials_invalid with the provider's reason.",
    authScopes: developer,
    args: {
      provider: t.arg({ type: GatewayProviderEnum, required: true, description: "STRIPE, PAGARME, MERCADOPAGO (or SANDBOX)." }),
      name: t.arg.string({ required: true, description: "Name unique within the tenant.", validate: z.string().trim().min(1).max(200) }),
      credentials: t.arg({ type: "JSON", required: true, description: "The provider's credential fields (gatewaySetup), an object of strings." }),
      apiBaseUrl: t.arg.string({ required: false, description: "A loopback base URL replacing the provider's (tests and their fakes); only with GATEWAY_ALLOW_BASE_URL_OVERRIDE=true." }),
    },
    resolve: (_q, _r, args, ctx) =>
      createGatewayAccount(ctx.runtime, { tenantId: tenantIdFor(ctx), provider: args.provider, name: args.name.trim(), credentials: args.credentials, apiBaseUrl: args.apiBaseUrl }),
  }),
  updateGatewayCredentials: t.prismaField({
    type: "GatewayAccount",
    description: "A member (developer, admin, owner) changes credential fields of their tenant's account: the fields given replace those values, the others stay; checked live first.",
    authScopes: developer,
    args: {
      id: t.arg.id({ required: true, description: "gwa_ id of an account of the member's tenant." }),
      credentials: t.arg({ type: "JSON", required: true, description: "The credential fields to change, an object of strings." }),
    },
    resolve: (_q, _r, args, ctx) => updateGatewayAccountCredentials(ctx.runtime, { id: String(args.id), credentials: args.credentials, tenantId: tenantIdFor(ctx), keepUnset: true }),
  }),
  setDefaultGateway: t.prismaField({
    type: "GatewayAccount",
    description: "A member (developer, admin, owner) makes one of their tenant's accounts the default for its provider. Existing offers keep theirs.",
    authScopes: developer,
    args: { id: t.arg.id({ required: true, description: "gwa_ id of an account of the member's tenant." }) },
    resolve: (_q, _r, args, ctx) => setDefaultGatewayAccount(ctx.db.prisma, { tenantId: tenantIdFor(ctx), id: String(args.id) }),
  }),
}));
