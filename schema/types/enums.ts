import { builder } from "../builder.ts";

export const TenantModeEnum = builder.enumType("TenantMode", {
  description: "LIVE tenants use the wall clock and real gateways; SANDBOX tenants have their own clock.",
  values: { LIVE: { description: "Production account." }, SANDBOX: { description: "Test account with its own clock." } } as const,
});

export const KeyScopeEnum = builder.enumType("KeyScope", {
  description: "What an API key may do.",
  values: { READ: { description: "Read routes only." }, WRITE: { description: "Reads plus actions that move money or state." } } as const,
});

export const BillingIntervalEnum = builder.enumType("BillingInterval", {
  description: "Length of a recurring cycle.",
  values: { MONTH: { description: "Monthly, keeping the anchor day." }, YEAR: { description: "Yearly." } } as const,
});

export const CollectionMethodEnum = builder.enumType("CollectionMethod", {
  description: "How a subscription's renewals are collected.",
  values: {
    CARD_AUTO: { description: "The saved card is charged automatically." },
    PIX_MANUAL: { description: "A Pix QR is issued before each due date." },
  } as const,
});

export const SubscriptionStatusEnum = builder.enumType("SubscriptionStatus", {
  description: "Subscription status; the only source of truth about access.",
  values: {
    PENDING_FIRST_PAYMENT: { description: "Checkout started, first charge not approved yet." },
    TRIALING: { description: "In trial." },
    ACTIVE: { description: "Paid and current." },
    PAST_DUE: { description: "A charge failed; retries running; access continues." },
    SUSPENDED: { description: "Retries exhausted; returns to active when paid." },
    CANCELED: { description: "Terminal." },
  } as const,
});
