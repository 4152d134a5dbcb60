// The one gateway interface (service-contract §4). Core code talks to gateways only through it;
// calls are made outside database transactions and each one is logged as a gateway event row.
import type { Cents } from "../shared/money.ts";
import type { Capabilities } from "./capabilities.ts";
import type { CustomerSyncRequest, CustomerSyncResult } from "./customer-sync.ts";
import type { WebhookParseResult } from "./gateway-notification.ts";

/** What a gateway needs to know about the tenant's account (never a secret of ours). */
export interface GatewayAccountRef {
  id: string;
  tenantId: string;
  provider: string;
  capabilities: Capabilities;
}

/**
 * An account's credentials, decrypted at call time from its ciphertext (credentials-vault.ts). They
 * live only in memory: never logged, never put in an event, an error or a GraphQL answer.
 */
export interface GatewayCredentials {
  /** The provider's credential fields as given to createGatewayAccount, e.g. Stripe's { secretKey, webhookSecret }. */
  credentials: Record<string, string>;
  /** Replaces the provider's base URL (tests: a loopback fake; GATEWAY_ALLOW_BASE_URL_OVERRIDE); null = the provider's own. */
  apiBaseUrl: string | null;
}

/** The answer of a live credential check. `reason` is shown to the operator: it never holds the secret. */
export type CredentialCheck = { ok: true } | { ok: false; reason: string };

/**
 * How an adapter reads an account's credentials at call time (registry.ts hands one to each adapter
 * that needs them; also `Gateways.credentials`). Throws CredentialsUnavailable when the account has
 * none or they were encrypted under a key this process does not hold.
 */
export type CredentialsSource = (account: Pick<GatewayAccountRef, "id" | "tenantId">) => Promise<GatewayCredentials>;

/** Card data as typed on the hosted page. It lives only in memory, from the form to tokenizeCard. */
export interface CardInput {
  holder: string;
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export type TokenizeResult =
  | {
      ok: true;
      token: string;
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
      /** After a browser authentication for a new customer (`authentication.newCustomer`): our cus_ id the provider's record carries. */
      customerRef?: string;
    }
  | {
      ok: false;
      code: string;
      /**
       * With code `authentication_required` from savePaymentMethod: the handle the provider's browser script
       * authenticates the card with (3-D Secure; Stripe: the SetupIntent's client_secret). Shown only to the
       * payer's page, never logged or stored.
       */
      nextAction?: string;
    };

/**
 * A card already tokenized in the browser by the provider's own script (Stripe.js: a pm_ id), to be saved
 * for later charges. Real gateways take this instead of CardInput: our server never sees a card number
 * (PCI SAQ A). The answer is a TokenizeResult: the token our code stores, and the card's brand, last 4, expiry.
 */
export interface SavePaymentMethodRequest {
  /** The provider's id of the tokenized card (Stripe: pm_…). */
  paymentMethodId: string;
  /** Our cus_ id: the provider's customer is found or made for it. */
  customerRef: string;
  email: string;
  name: string;
  /** A token this customer already holds at this account: its provider customer is reused. */
  existingToken?: string | null;
  /**
   * The second step after `{ok: false, code: "authentication_required", nextAction}`: the browser ran the
   * provider's challenge with `handle` (that nextAction) and posted it back. Nothing from the browser is
   * trusted: the adapter fetches the provider's record by the handle and uses it only if it succeeded and
   * belongs to this payment method and customer (`customerRef`; with `newCustomer`, a checkout whose
   * customer is not written yet, to the cus_ id of ours the record carries, returned as `customerRef`).
   */
  authentication?: { handle: string; newCustomer?: boolean } | null;
  /**
   * The caller charges this card on the same page right after (checkout, /pay). A provider whose browser
   * token is single-use and whose guide pays before saving (Mercado Pago) then pays with the token first and
   * saves the card after the approval; without it the card is saved at once (a trial, a card change).
   */
  chargeFollows?: boolean;
}

export interface ChargeRequest {
  token: string;
  amountCents: Cents;
  currency: string;
  /** Derived from the invoice/order id and attempt number: a replay returns the first outcome. */
  idempotencyKey: string;
  /** Our own code of the charge (inv_/ord_). */
  reference: string;
  /**
   * Merchant-initiated, with the customer away (renewals, retries, charge-now, proration), as Stripe's
   * `off_session`. Absent: the customer is on our page (checkout, /pay).
   */
  offSession?: boolean;
}

export interface ChargeResult {
  outcome: "approved" | "declined";
  chargeId: string;
  /** Decline reason (card_declined, insufficient_funds…); empty when approved. */
  detailCode: string;
}

export interface PixRequest {
  amountCents: Cents;
  currency: string;
  idempotencyKey: string;
  reference: string;
  expiresAt: Date;
  /**
   * Who pays, when the caller has it before any row exists (the checkout). A provider that must name the
   * payer of a Pix (Pagar.me: name, e-mail, CPF/CNPJ, phone) uses it; otherwise it looks the reference up.
   */
  payer?: { name: string; email: string; doc: string | null; phone: string | null };
}

export interface PixResult {
  chargeId: string;
  copyPaste: string;
  expiresAt: Date;
}

export interface RefundRequest {
  chargeId: string;
  amountCents: Cents;
  idempotencyKey: string;
}

export interface RefundResult {
  outcome: "refunded" | "declined";
  refundId: string;
  detailCode: string;
}

export interface StatusResult {
  /** not_found: the gateway never received the charge (safe to try again). */
  outcome: "approved" | "declined" | "pending" | "not_found";
  chargeId: string;
  detailCode: string;
  /** Approved: the cents the gateway says it received, when it says (absent: the amount charged). */
  amountCents?: number | null;
}

/** A timeout or transport error: the outcome at the gateway is unknown until fetchStatus says. */
export class GatewayUnavailable extends Error {
  constructor(readonly detailCode: string, readonly httpStatus = 504) {
    super(`gateway unavailable: ${detailCode}`);
    this.name = "GatewayUnavailable";
  }
}

/**
 * The provider's definitive no to the request itself (a 4xx such as a Pix payer without the document or
 * phone it needs): nothing was made, and the same request would be refused again, so it is no outage.
 * `detailCode` is our code for the provider's reason (never its text, which may echo input).
 */
export class GatewayRefused extends Error {
  constructor(readonly detailCode: string, readonly httpStatus = 422) {
    super(`gateway refused: ${detailCode}`);
    this.name = "GatewayRefused";
  }
}

/**
 * An account's credentials cannot be read: none stored, or encrypted under a key this process does not
 * hold. A kind of GatewayUnavailable, so a call that hits it is logged and settled like any unreachable
 * gateway (detail code credentials_unavailable), never a 500. The message names the key id, never a secret.
 */
export class CredentialsUnavailable extends GatewayUnavailable {
  constructor(readonly reason: string) {
    super("credentials_unavailable", 503);
    this.message = `gateway credentials unavailable: ${reason}`;
    this.name = "CredentialsUnavailable";
  }
}

export interface GatewayAdapter {
  readonly provider: string;
  readonly defaults: Capabilities;
  tokenizeCard(account: GatewayAccountRef, card: CardInput, now: Date): Promise<TokenizeResult>;
  chargeToken(account: GatewayAccountRef, req: ChargeRequest, now: Date): Promise<ChargeResult>;
  createPixCharge(account: GatewayAccountRef, req: PixRequest, now: Date): Promise<PixResult>;
  refund(account: GatewayAccountRef, req: RefundRequest, now: Date): Promise<RefundResult>;
  fetchStatus(account: GatewayAccountRef, idempotencyKey: string, now: Date): Promise<StatusResult>;
  /** Pushes the customer's name, e-mail and phone (customer-sync.ts). A refusal is an answer, not an exception. */
  updateCustomer(account: GatewayAccountRef, req: CustomerSyncRequest, now: Date): Promise<CustomerSyncResult>;
  /**
   * Live check of candidate credentials against the provider, before they are stored
   * (createGatewayAccount, updateGatewayAccountCredentials). Wrong, revoked or incomplete credentials
   * are `{ok: false, reason}`, not an exception; a transport failure may throw (the operator hears a
   * 4xx that the provider could not be reached). Absent: every credential is accepted (sandbox).
   */
  verifyCredentials?(candidate: GatewayCredentials, now: Date): Promise<CredentialCheck>;
  /**
   * Saves a card the provider's browser script tokenized (real gateways; their tokenizeCard refuses card
   * numbers). A refusal is `{ok: false, code}`; a transport failure throws GatewayUnavailable.
   */
  savePaymentMethod?(account: GatewayAccountRef, req: SavePaymentMethodRequest, now: Date): Promise<TokenizeResult>;
  /**
   * Verifies an inbound notice over its raw body (signature, freshness) with the account's webhook secret
   * and normalizes it (gateway-notification.ts). Never throws for a bad notice: `{ok: false, reason}`.
   * May be async: a provider that does not sign its notices (Pagar.me), or signs only an id (Mercado Pago),
   * treats the notice as a hint and re-fetches the object from the provider with `account`'s credentials;
   * a transport failure then throws GatewayUnavailable (the route answers 5xx: the provider delivers again).
   */
  parseWebhook?(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    webhookSecret: string,
    now: Date,
    account: GatewayAccountRef,
    /** The notice URL's query parameters (Mercado Pago signs the `data.id` of its query string). */
    query?: Record<string, string | undefined>,
  ): WebhookParseResult | Promise<WebhookParseResult>;
  /**
   * False for a provider whose notices carry no signature to check (Pagar.me v5): the route does not ask the
   * account for a webhookSecret and parseWebhook must confirm every notice by re-fetching it. Absent = true.
   */
  readonly webhookSecretRequired?: boolean;
}
