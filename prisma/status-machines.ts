// The status transition tables, as data (Kill Bill's PaymentStates.xml): for each status column, the
// statuses each status may become. They sit with the schema because the database enforces them:
// prisma/status-triggers.ts generates one trigger per table from this list, and core's one write
// helper (core/shared/transition.ts) guards every status write with the same table.
// A status absent from its own list cannot be rewritten onto itself. An insert is a birth, not a
// transition: a row may be born in any status.
import type { EmailStatus, InvoiceStatus, LinkStatus, OrderStatus, PaymentStatus, ReferralStatus, RefundStatus, SubscriptionStatus } from "../generated/prisma/client.ts";

/** One status column's machine: its model, SQL table and enum type, and from -> the statuses it may become. */
export interface StatusTable<Model extends string = string, S extends string = string> {
  model: Model;
  table: string;
  enumType: string;
  transitions: { readonly [K in S]: readonly S[] };
}

// The subscription state machine (billing-api.md "Subscription transitions").
export const SUBSCRIPTION: StatusTable<"subscription", SubscriptionStatus> = {
  model: "subscription",
  table: "subscriptions",
  enumType: "SubscriptionStatus",
  transitions: {
    // Paid (Pix QR, /pay) or never paid (the QR expired, a cancel). Born trialing/active at checkout instead.
    PENDING_FIRST_PAYMENT: ["ACTIVE", "CANCELED"],
    // Trial end paid (or a migration link), declined, canceled.
    TRIALING: ["ACTIVE", "PAST_DUE", "CANCELED"],
    // ACTIVE -> ACTIVE is a renewal (a new period is written with the status).
    ACTIVE: ["ACTIVE", "PAST_DUE", "CANCELED"],
    // PAST_DUE -> PAST_DUE is a retry scheduled; suspension only after past_due (never straight from active).
    PAST_DUE: ["ACTIVE", "PAST_DUE", "SUSPENDED", "CANCELED"],
    SUSPENDED: ["ACTIVE", "CANCELED"],
    // Terminal: a canceled subscription never comes back.
    CANCELED: [],
  },
};

// An open invoice is paid, or voided (its subscription ended, a plan change's proration not applied).
// Paid and void are final: money approved on them is a surplus, refunded. UNCOLLECTIBLE exists in the
// schema but nothing writes it yet: no move reaches it.
export const INVOICE: StatusTable<"invoice", InvoiceStatus> = {
  model: "invoice",
  table: "invoices",
  enumType: "InvoiceStatus",
  transitions: { OPEN: ["PAID", "VOID"], PAID: [], VOID: [], UNCOLLECTIBLE: [] },
};

// UNKNOWN (gateway outcome not heard) only leaves through a verdict (reconciliation). PAID money
// leaves only by a refund or a chargeback; the others are terminal.
export const PAYMENT: StatusTable<"payment", PaymentStatus> = {
  model: "payment",
  table: "payments",
  enumType: "PaymentStatus",
  transitions: {
    PROCESSING: ["PAID", "FAILED", "UNKNOWN"],
    UNKNOWN: ["PAID", "FAILED"],
    PAID: ["REFUNDED", "CHARGEDBACK"],
    FAILED: [],
    REFUNDED: [],
    CHARGEDBACK: [],
  },
};

// A pending order is paid (card, its Pix QR) or canceled (its one card attempt refused); a paid order
// is refunded (total refund or chargeback). EXPIRED exists in the schema but nothing writes it yet.
export const ORDER: StatusTable<"order", OrderStatus> = {
  model: "order",
  table: "orders",
  enumType: "OrderStatus",
  transitions: { PENDING: ["PAID", "CANCELED"], PAID: ["REFUNDED"], REFUNDED: [], CANCELED: [], EXPIRED: [] },
};

// A pending refund gets the gateway's answer once (the request and the reconcile job may race; the
// second finds it settled).
export const REFUND: StatusTable<"refund", RefundStatus> = {
  model: "refund",
  table: "refunds",
  enumType: "RefundStatus",
  transitions: { PENDING: ["SUCCEEDED", "FAILED"], SUCCEEDED: [], FAILED: [] },
};

// A /pay link is born OPEN (a renewal link is born ACTIVE) and is spent once: paid (its invoice, order
// or migration), used (a card saved), or canceled (a migration link superseded). Expiry is read from
// expires_at, so nothing writes EXPIRED yet; spent links never reopen.
export const LINK: StatusTable<"link", LinkStatus> = {
  model: "link",
  table: "links",
  enumType: "LinkStatus",
  transitions: { OPEN: ["PAID", "USED", "CANCELED"], ACTIVE: ["PAID"], USED: [], PAID: [], EXPIRED: [], CANCELED: [] },
};

// A referral qualifies after the referred subscription's paid cycles, then rewards its referrer once.
// A cancel reverts it while pending; a refund reverts it at any stage (the reward is taken back).
export const REFERRAL: StatusTable<"referral", ReferralStatus> = {
  model: "referral",
  table: "referrals",
  enumType: "ReferralStatus",
  transitions: {
    PENDING: ["QUALIFIED", "REVERTED"],
    QUALIFIED: ["REWARDED", "REVERTED"],
    REWARDED: ["REVERTED"],
    REVERTED: [],
  },
};

// An outbox e-mail is sent once or given up on once. A retry leaves it PENDING (attempts and the next
// try change, not the status), so PENDING -> PENDING is no move. SENT is final: the receiver has it.
// FAILED is final too for now: nothing resends an e-mail yet. A manual resend (the panel's, later) is
// FAILED -> PENDING on the same row, so the repeat keeps its Message-ID; it is added here, with a new
// generated trigger migration, together with the use case that writes it.
export const EMAIL: StatusTable<"emailMessage", EmailStatus> = {
  model: "emailMessage",
  table: "email_messages",
  enumType: "EmailStatus",
  transitions: { PENDING: ["SENT", "FAILED"], SENT: [], FAILED: [] },
};

/** Every status machine, in one list: the trigger generator and the pair tests walk it. */
export const STATUS_MACHINES: readonly StatusTable[] = [SUBSCRIPTION, INVOICE, PAYMENT, ORDER, REFUND, LINK, REFERRAL, EMAIL];

/** Every (from, to) pair the table allows, in table order (the trigger generator's input). */
export function allowedPairs<S extends string>(machine: StatusTable<string, S>): [S, S][] {
  return (Object.keys(machine.transitions) as S[]).flatMap((from) => machine.transitions[from].map((to) => [from, to] as [S, S]));
}
