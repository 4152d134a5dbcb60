// What connecting each provider takes, as data: the credential fields its adapter reads (which are secret,
// which a first connection needs) and the notice events to enable at the provider for our notice URL
// (docs/guides/gateways/<provider>.md). The panel draws its forms from this; the adapters check the values.
import { NOTICE_TOKEN_FIELD } from "./notice-token.ts";

export interface CredentialFieldSetup {
  /** The credentials' field name, e.g. secretKey. */
  name: string;
  /** A secret (never shown back, even masked it is a hint only); a public key is false. */
  secret: boolean;
  /** Needed to connect; an optional field can be added later (Stripe's signing secret exists only once the endpoint is made). */
  required: boolean;
  /** The shape the provider gives it, e.g. "sk_live_… or sk_test_…". */
  shape: string;
}

export interface ProviderSetup {
  provider: "sandbox" | "stripe" | "pagarme" | "mercadopago";
  credentialFields: CredentialFieldSetup[];
  /** The event types to enable at the provider for the notice URL; empty for the sandbox (no notices). */
  noticeEvents: string[];
  /** The notice URL carries a secret token (a provider that signs nothing): keep the URL secret. */
  noticeUrlHasToken: boolean;
}

export const PROVIDER_SETUP: readonly ProviderSetup[] = [
  {
    provider: "stripe",
    credentialFields: [
      { name: "secretKey", secret: true, required: true, shape: "sk_live_…, sk_test_… ou rk_…" },
      { name: "publishableKey", secret: false, required: false, shape: "pk_live_… ou pk_test_…" },
      { name: "webhookSecret", secret: true, required: false, shape: "whsec_…" },
    ],
    noticeEvents: ["payment_intent.succeeded", "payment_intent.payment_failed", "refund.created", "refund.updated", "refund.failed", "charge.dispute.created"],
    noticeUrlHasToken: false,
  },
  {
    provider: "pagarme",
    credentialFields: [
      { name: "secretKey", secret: true, required: true, shape: "sk_… ou sk_test_…" },
      { name: "publicKey", secret: false, required: false, shape: "pk_… ou pk_test_…" },
    ],
    noticeEvents: ["charge.paid", "charge.payment_failed", "charge.refunded", "charge.partial_canceled", "charge.chargedback", "order.paid", "order.payment_failed"],
    noticeUrlHasToken: true,
  },
  {
    provider: "mercadopago",
    credentialFields: [
      { name: "accessToken", secret: true, required: true, shape: "APP_USR-… ou TEST-…" },
      { name: "publicKey", secret: false, required: false, shape: "APP_USR-… ou TEST-…" },
      { name: "webhookSecret", secret: true, required: false, shape: "a assinatura secreta do painel do Mercado Pago" },
    ],
    noticeEvents: ["payment"],
    noticeUrlHasToken: false,
  },
  { provider: "sandbox", credentialFields: [], noticeEvents: [], noticeUrlHasToken: false },
];

/** Credential fields a member may type: the notice token is made by us, never typed. */
export const isTypedCredentialField = (provider: string, field: string): boolean =>
  field !== NOTICE_TOKEN_FIELD && !!PROVIDER_SETUP.find((p) => p.provider === provider)?.credentialFields.some((f) => f.name === field);
