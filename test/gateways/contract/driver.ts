// What the adapter contract suite (test/gateways/contract/*.test.ts) asks of a provider: a small driver
// per provider that opens an account at its local fake (or the sandbox), pays at the hosted checkout,
// makes the card decline, delivers or loses the provider's notices, takes the provider down, and reads
// the provider's own ledger. The suite writes each scenario once and runs it with every driver.
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { CPF } from "../../helpers/billing.ts";
import { call } from "../../helpers/http.ts";
import * as reads from "../../helpers/provider-reads.ts";
import { testService } from "../../helpers/service.ts";
import type { TestTenant } from "../../helpers/tenant.ts";

export type Obj = Record<string, any>;

export interface ContractOffer {
  t: TestTenant;
  /** The gateway account's id ("sandbox" for the built-in one). */
  accountId: string;
  offerId: string;
}

/** Our payment row, as the stories read it from the database. */
export type PaymentRow = { id: string; idempotencyKey: string; gatewayChargeId: string; status: string } & Obj;

export interface ContractSubscription extends ContractOffer {
  subscriptionId: string;
  answer: Obj;
}

/**
 * How the hosted checkout is paid: a good card, one that pays at checkout and declines every later charge
 * (insufficient funds), one the issuer refuses at once, or Pix.
 */
export type Pay = "card" | "card_declining_later" | "declined_card" | "pix";

/** A notice the provider sends; delivering it answers the result word, or null where the provider has none (the sandbox). */
export interface Notice {
  deliver(): Promise<string | null>;
}

/** The provider's side of one of our keys: objects it made under it, charges that took money, cents given back. */
export interface ProviderSide {
  made: number;
  charged: number;
  refunded: number;
}

export type Outage = "500" | "500_after" | "hang";

export interface ProviderDriver {
  /** The label of the suite's describe block. */
  name: string;
  /** Payment.provider of what it charges. */
  provider: string;
  /** Whether the provider sends notices of its own (the sandbox's Pix is settled by simulatePixPayment instead). */
  sendsNotices: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A new tenant whose offer (R$49.90 a month, card and Pix) is at an account of this provider. */
  offer(): Promise<ContractOffer>;
  /** The hosted checkout's JSON post. */
  checkout(o: ContractOffer, pay: Pay): Promise<{ status: number; body: Obj }>;
  /** The good card as /v1 shows it. */
  card: { brand: string; last4: string };
  /** Our detail code of a renewal declined for insufficient funds. */
  declineCode: string;
  /** The payer's bank pays a Pix (by its copy-and-paste code); the provider's notice of it is not delivered yet. */
  payPix(o: ContractOffer, copyPaste: string): Promise<Notice>;
  /** The cardholder disputes a paid card payment with the issuer. */
  dispute(o: ContractOffer, payment: PaymentRow): Promise<Notice>;
  /** The notice the provider sent about the card charge under our key, where it sends one. */
  chargeNotice(o: ContractOffer, idempotencyKey: string): Notice | null;
  /** The next card charge the provider is asked for, for this tenant, meets an outage. */
  failNextCharge(o: ContractOffer, kind: Outage): Promise<void>;
  /** Runs `fn` with the adapter's wait cut short (a hang becomes a timeout at once). */
  withShortTimeout<T>(fn: () => Promise<T>): Promise<T>;
  /** The provider's own record under one of our keys. */
  side(idempotencyKey: string): Promise<ProviderSide>;
  /** The refunds the provider made of a charge (our gatewayChargeId), oldest first, with the key each was asked under. */
  refundsOf(chargeId: string): Promise<{ amount: number; key: string | null }[]>;
  /** What only this provider shows at these points of the stories (the shape of its requests and records). */
  hooks?: {
    cardCheckout?(s: ContractSubscription, first: PaymentRow): Promise<void>;
    renewal?(s: ContractSubscription, first: PaymentRow, renewal: PaymentRow): Promise<void>;
    pixCheckout?(s: ContractSubscription, pix: PaymentRow, answer: Obj): Promise<void>;
    declinedAttempt?(attempt: PaymentRow): Promise<void>;
    pixReconciled?(pix: PaymentRow): Promise<void>;
    /** The open invoice's Pix (of its /pay link) before the payer pays it. */
    linkPix?(s: ContractSubscription, copyPaste: string): Promise<void>;
    /** A card payment refunded in full, after the stories' own checks. */
    refunded?(s: ContractSubscription, payment: PaymentRow): Promise<void>;
  };
}

/** The hosted checkout's JSON post of a buyer, with the payment fields of the provider's page. */
export async function postCheckout(offerId: string, payment: Obj) {
  const ext = `ext-${randomBytes(5).toString("hex")}`;
  const body = { external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: CPF, ...payment };
  return call("POST", `/checkout/${offerId}`, { body, as: "json", headers: { accept: "application/json" } });
}

/** A subscription made on the hosted checkout; fails the test if refused. */
export async function subscribeWith(d: ProviderDriver, pay: Pay = "card", o?: ContractOffer): Promise<ContractSubscription> {
  const offer = o ?? (await d.offer());
  const r = await d.checkout(offer, pay);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { ...offer, subscriptionId: r.body.subscription_id as string, answer: r.body };
}

/** A notice's answer: the word where the provider has one. */
export function expectResult(result: string | null, word: string) {
  if (result !== null) expect(result).toBe(word);
}

/** The saved card's token of a subscription (the provider's customer and card ids, joined by "|"). */
export async function savedToken(subscriptionId: string): Promise<string> {
  const sub = await (await testService()).runtime.db.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { paymentMethod: true } });
  return sub.paymentMethod?.token ?? "";
}

// --- what the stories read: /v1 as the vendor reads it, and our payment rows ---

export const subscriptionOf = (s: ContractOffer, id: string) => reads.subscriptionOf(s.t.readKey, id);
export const eventsOf = (s: ContractOffer, subscriptionId: string) => reads.eventsOf(s.t.readKey, subscriptionId);
export const paymentsOf = (subscriptionId: string): Promise<PaymentRow[]> => reads.paymentsOf(subscriptionId);
