// Assembles the schema: every type and mutation module registers itself on the builder.
import { builder } from "./builder.ts";
import "./scalars.ts";
import "./errors.ts";
import "./types/enums.ts";
import "./types/tenant.ts";
import "./types/catalog.ts";
import "./types/gateway-account.ts";
import "./types/webhook-endpoint.ts";
import "./types/customer.ts";
import "./types/payment.ts";
import "./types/subscription.ts";
import "./types/subscription-payment-link.ts";
import "./types/order-payment-link.ts";
import "./types/grant.ts";
import "./types/event.ts";
import "./types/webhook-delivery.ts";
import "./types/entitlements.ts";
import "./types/referral.ts";
import "./types/renewal-campaign.ts";
import "./mutations/tenants.ts";
import "./mutations/webhooks.ts";
import "./mutations/catalog.ts";
import "./mutations/gateway-accounts.ts";
import "./mutations/customers.ts";
import "./mutations/sandbox.ts";
import "./mutations/subscription-lifecycle.ts";
import "./mutations/plan-changes.ts";
import "./mutations/charge-and-links.ts";
import "./mutations/refunds.ts";
import "./mutations/renewal-campaigns.ts";

builder.queryType({ description: "Reads. Tenant keys see their own tenant; the operator passes tenantId." });
builder.mutationType({ description: "Operator and tenant actions. Every business rule lives in core/." });

export const schema = builder.toSchema({ sortSchema: true });
