// Operator mutations of gateway accounts. Credentials go in, never out: the answers carry masked hints.
import { z } from "zod";
import { createGatewayAccount } from "../../core/gateways/create-gateway-account.ts";
import { setDefaultGatewayAccount } from "../../core/gateways/set-default-gateway-account.ts";
import { updateGatewayAccountCredentials } from "../../core/gateways/update-gateway-account-credentials.ts";
import { builder } from "../builder.ts";
import { GatewayProviderEnum } from "../types/gateway-account.ts";

const operator = { operator: true } as const;
const name = z.string().trim().min(1).max(200);

builder.mutationFields((t) => ({
  createGatewayAccount: t.prismaField({
    type: "GatewayAccount",
    description:
      "Create a gateway account. Real providers need their credentials, checked live with the provider and stored encrypted (only masked hints are ever returned); " +
      "the first account of a provider becomes its default. For sandbox, capabilities override the adapter defaults.",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      provider: t.arg({ type: GatewayProviderEnum, required: true, description: "SANDBOX, STRIPE, PAGARME or MERCADOPAGO." }),
      name: t.arg.string({ required: true, description: "Name unique within the tenant.", validate: name }),
      capabilities: t.arg({ type: "JSON", required: false, description: "Sandbox only: partial capability record." }),
      credentials: t.arg({
        type: "JSON",
        required: false,
        description: "The provider's credential fields, an object of strings, e.g. {secretKey, publishableKey, webhookSecret} for Stripe. Optional for sandbox.",
      }),
      apiBaseUrl: t.arg.string({
        required: false,
        description: "Replaces the provider's base URL with a loopback one (tests and their fakes). Accepted only when the service runs with GATEWAY_ALLOW_BASE_URL_OVERRIDE=true.",
      }),
    },
    resolve: (_q, _r, args, ctx) =>
      createGatewayAccount(ctx.runtime, {
        tenantId: String(args.tenantId),
        provider: args.provider,
        name: args.name,
        capabilities: args.capabilities,
        credentials: args.credentials,
        apiBaseUrl: args.apiBaseUrl,
      }),
  }),
  updateGatewayAccountCredentials: t.prismaField({
    type: "GatewayAccount",
    description: "Replace a gateway account's credentials (checked live with the provider, then encrypted under the current key). Answers the masked hints only.",
    authScopes: operator,
    args: {
      id: t.arg.id({ required: true, description: "gwa_ id." }),
      credentials: t.arg({ type: "JSON", required: true, description: "The provider's credential fields, an object of strings." }),
    },
    resolve: (_q, _r, args, ctx) => updateGatewayAccountCredentials(ctx.runtime, { id: String(args.id), credentials: args.credentials }),
  }),
  setDefaultGatewayAccount: t.prismaField({
    type: "GatewayAccount",
    description: "Make an account the tenant's default for its provider: the account a provider name means in createOffer's gateway. Existing offers keep theirs.",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      id: t.arg.id({ required: true, description: "gwa_ id of an account of that tenant." }),
    },
    resolve: (_q, _r, args, ctx) => setDefaultGatewayAccount(ctx.db.prisma, { tenantId: String(args.tenantId), id: String(args.id) }),
  }),
}));
