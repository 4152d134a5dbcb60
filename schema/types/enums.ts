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

export const PaymentStatusEnum = builder.enumType("PaymentStatus", {
  description: "A payment's status as the API shows it (an outcome not yet heard from the gateway reads PROCESSING).",
  values: {
    PROCESSING: { description: "Sent to the gateway; the outcome is not known yet." },
    PAID: { description: "The money was taken." },
    FAILED: { description: "Refused by the gateway, or the Pix expired unpaid." },
    REFUNDED: { description: "Paid, then refunded in full." },
    CHARGEDBACK: { description: "Paid, then disputed by the cardholder and lost." },
  } as const,
});

export const PaymentKindEnum = builder.enumType("PaymentKind", {
  description: "What a payment pays for.",
  values: { RECURRING: { description: "An invoice of a subscription." }, ONE_TIME: { description: "A one-time order." } } as const,
});

export const PaymentMethodTypeEnum = builder.enumType("PaymentMethodType", {
  description: "How a payment is made.",
  values: { CARD: { description: "A card charge." }, PIX: { description: "A Pix QR paid by the customer." } } as const,
});

export const InvoiceStatusEnum = builder.enumType("InvoiceStatus", {
  description: "An invoice's status.",
  values: {
    OPEN: { description: "Being collected (card attempts or a Pix QR)." },
    PAID: { description: "Paid." },
    VOID: { description: "Closed without payment (canceled subscription, replaced invoice)." },
    UNCOLLECTIBLE: { description: "Dunning ended without payment." },
  } as const,
});

export const InvoiceKindEnum = builder.enumType("InvoiceKind", {
  description: "Why an invoice exists.",
  values: {
    FIRST: { description: "The first payment of the subscription (checkout)." },
    CYCLE: { description: "A renewal of one cycle." },
    PRORATION: { description: "The prorated difference of an immediate plan change." },
  } as const,
});

export const OrderStatusEnum = builder.enumType("OrderStatus", {
  description: "A one-time order's status.",
  values: {
    PENDING: { description: "Waiting for payment (a Pix QR is open)." },
    PAID: { description: "Paid; its grant or extension applies." },
    REFUNDED: { description: "Refunded." },
    CANCELED: { description: "Canceled before payment." },
    EXPIRED: { description: "Its Pix expired unpaid." },
  } as const,
});

export const ReferralStatusEnum = builder.enumType("ReferralStatus", {
  description: "Where a referral stands.",
  values: {
    PENDING: { description: "The referred customer subscribed; not qualified yet." },
    QUALIFIED: { description: "The referred subscription paid the program's cycles." },
    REWARDED: { description: "The referrer got the reward." },
    REVERTED: { description: "Undone (refund, chargeback or self-referral)." },
  } as const,
});
