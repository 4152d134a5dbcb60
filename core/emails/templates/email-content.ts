// What each e-mail says, as data: the facts a template needs, snapshotted (JSON-safe) in the
// transaction that queues the message and rendered by the sender. Money in integer cents, instants as
// ISO strings on the tenant's clock.

/** Sent to the customer; each can be turned off per tenant (a vendor that sends its own). */
export const CUSTOMER_TEMPLATES = [
  "receipt",
  "pix_charge_issued",
  "payment_declined",
  "trial_ending",
  "subscription_suspended",
  "subscription_canceled",
  "refund_issued",
] as const;

/** Sent to the vendor's team (the tenant's contact addresses); always on. */
export const VENDOR_TEMPLATES = ["webhook_endpoint_failing", "gateway_credentials_refused"] as const;

/**
 * Sent to one member of a tenant's team at the explicit address (an invitation, a password reset);
 * always on. They carry a single-use link: the row holds it sealed (see core/emails/team-email-link.ts).
 */
export const TEAM_TEMPLATES = ["team_invitation", "password_reset"] as const;

export type CustomerTemplate = (typeof CUSTOMER_TEMPLATES)[number];
export type VendorTemplate = (typeof VENDOR_TEMPLATES)[number];
export type TeamTemplate = (typeof TEAM_TEMPLATES)[number];
export type EmailTemplate = CustomerTemplate | VendorTemplate | TeamTemplate;

export function isCustomerTemplate(value: string): value is CustomerTemplate {
  return (CUSTOMER_TEMPLATES as readonly string[]).includes(value);
}

export function isTeamTemplate(value: string): value is TeamTemplate {
  return (TEAM_TEMPLATES as readonly string[]).includes(value);
}

export type PaymentMethodFacts = { kind: "card"; brand: string; last4: string } | { kind: "pix" };

export interface ReceiptParams {
  /** What was sold: a subscription's invoice or a one-off order. */
  subject: "invoice" | "order";
  /** inv_ / ord_ id the customer can quote. */
  reference: string;
  productName: string;
  planName: string | null;
  /** What was actually charged (after coupon, proration or credit). */
  amountCents: number;
  currency: string;
  method: PaymentMethodFacts;
  paidAt: string;
  periodStart: string | null;
  periodEnd: string | null;
  /** The next charge, when the subscription renews by itself. */
  nextChargeAt: string | null;
  nextChargeCents: number | null;
}

export interface PixChargeIssuedParams {
  /** pay_ id of the Pix charge. */
  reference: string;
  productName: string;
  planName: string | null;
  amountCents: number;
  currency: string;
  /** When the code stops working. */
  expiresAt: string;
  /** The copy-and-paste BR Code; the QR image is drawn from it at send time. */
  brCode: string;
  /** The hosted payment page (/pay) for this charge. */
  payUrl: string;
}

export interface PaymentDeclinedParams {
  reference: string;
  planName: string;
  amountCents: number;
  currency: string;
  /** The card that was refused, when it was a card. */
  method: PaymentMethodFacts | null;
  /** The next automatic retry, or null when the next step is suspension. */
  nextRetryAt: string | null;
  /** When access stops if nothing is paid. */
  suspendsAt: string | null;
  /** /pay link: pay now or change the card. */
  payUrl: string;
}

export interface TrialEndingParams {
  planName: string;
  trialEndsAt: string;
  /** What the first charge will be, and with what. */
  amountCents: number;
  currency: string;
  method: PaymentMethodFacts | null;
}

export interface SubscriptionSuspendedParams {
  planName: string;
  amountCents: number;
  currency: string;
  suspendedAt: string;
  payUrl: string;
}

export interface SubscriptionCanceledParams {
  planName: string;
  canceledAt: string;
  /** The last instant the customer has access (the period end for a cancel at period end). */
  accessEndsAt: string;
  /** The reason given at cancel (at most 300 characters), or null. */
  reason: string | null;
}

export interface RefundIssuedParams {
  /** pay_ or ord_ id refunded. */
  reference: string;
  productName: string;
  amountCents: number;
  currency: string;
  method: PaymentMethodFacts | null;
  refundedAt: string;
}

export interface WebhookEndpointFailingParams {
  endpointUrl: string;
  /** exhausted: a delivery ran out of retries; disabled: the endpoint was turned off. */
  reason: "exhausted" | "disabled";
  at: string;
  /** The event type whose delivery was exhausted, when there is one. */
  eventType: string | null;
}

export interface GatewayCredentialsRefusedParams {
  provider: string;
  /** The gateway account's label or id (never a secret). */
  account: string;
  at: string;
}

export type TeamRole = "OWNER" | "ADMIN" | "DEVELOPER" | "SUPPORT" | "VIEWER";

/** The single-use link of a team e-mail. In the outbox row `url` is sealed; the sender opens it. */
export interface TeamLinkFacts {
  /** The team link's id (the seal is bound to it). */
  linkId: string;
  /** The link with its token: clear only while rendering for the recipient. */
  url: string;
  /** When the link stops working. */
  expiresAt: string;
}

export interface TeamInvitationParams extends TeamLinkFacts {
  tenantName: string;
  /** Who invited, when a member did (their e-mail); null for the operator. */
  inviter: string | null;
  role: TeamRole;
}

export interface PasswordResetParams extends TeamLinkFacts {
  tenantName: string;
}

export type EmailContent =
  | { template: "receipt"; params: ReceiptParams }
  | { template: "pix_charge_issued"; params: PixChargeIssuedParams }
  | { template: "payment_declined"; params: PaymentDeclinedParams }
  | { template: "trial_ending"; params: TrialEndingParams }
  | { template: "subscription_suspended"; params: SubscriptionSuspendedParams }
  | { template: "subscription_canceled"; params: SubscriptionCanceledParams }
  | { template: "refund_issued"; params: RefundIssuedParams }
  | { template: "webhook_endpoint_failing"; params: WebhookEndpointFailingParams }
  | { template: "gateway_credentials_refused"; params: GatewayCredentialsRefusedParams }
  | { template: "team_invitation"; params: TeamInvitationParams }
  | { template: "password_reset"; params: PasswordResetParams };

/** Who it comes from and to whom: the same for every template. */
export interface EmailFrame {
  /** The vendor's display name (tenant name unless set otherwise). */
  senderName: string;
  /** The recipient's name for the greeting, when known (customers). */
  recipientName: string | null;
  /** Sandbox tenants: the subject starts with "[TESTE]" and the body says no money moved. */
  sandbox: boolean;
}

export interface InlineImage {
  cid: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** Images the HTML shows through cid: links (no remote resources). */
  inline: InlineImage[];
}
