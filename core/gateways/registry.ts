// The adapters one process knows, by provider key, plus the account lookup every call starts from.
import type { GatewayAccount, PrismaClient } from "../../generated/prisma/client.ts";
import { CredentialsUnavailable, type CredentialsSource, type GatewayAccountRef, type GatewayAdapter, type GatewayCredentials } from "./adapter.ts";
import { capabilitiesSchema } from "./capabilities.ts";
import { wallClock, type Clock } from "../shared/clock.ts";
import { CredentialsVault } from "./credentials-vault.ts";
import { SandboxAdapter } from "./sandbox-adapter.ts";
import { StripeAdapter } from "./stripe-adapter.ts";
import { PagarmeAdapter } from "./pagarme-adapter.ts";
import { payerLookup } from "./payer-lookup.ts";
import { MercadoPagoAdapter } from "./mercadopago-adapter.ts";
import { recurrenceLookup } from "./recurrence-lookup.ts";

export interface Gateways {
  adapter(provider: string): GatewayAdapter;
  /** Whether this process runs an adapter for the provider (an account of another provider is refused). */
  has(provider: string): boolean;
  /** The sandbox adapter's own controls (Pix payment, chargebacks). */
  sandbox: SandboxAdapter;
  /** Seals and opens gateway credentials (AES-256-GCM, key ring of GATEWAY_CREDENTIALS_KEY). */
  vault: CredentialsVault;
  /** An account's decrypted credentials at call time, for adapters and the inbound webhook route. */
  credentials: CredentialsSource;
  /** Drops a cached copy after the credentials changed (updateGatewayAccountCredentials). */
  forgetCredentials(accountId: string): void;
}

/** Decrypted credentials are kept this long per account, so a batch of renewals reads the row once. */
const CREDENTIALS_TTL_MS = 10_000;

/** Where a payer sent away by a card's issuer (3-D Secure) comes back to, under PUBLIC_URL (pay-router.ts). */
export const PAYMENT_RETURN_PATH = "/pay/return";

/**
 * `clock`: the transport clock of the cache (a wall-clock TTL, like rate limits, never a tenant's clock).
 * `publicUrl`: our hosted pages' address (PUBLIC_URL), for the return page of on-session confirmations.
 */
export function createGateways(prisma: PrismaClient, vault: CredentialsVault, clock: Clock = wallClock, opts: { publicUrl?: string; read?: <T>(sql: string, params: unknown[]) => Promise<T[]> } = {}): Gateways {
  const cache = new Map<string, { value: GatewayCredentials; until: number }>();
  const credentials: CredentialsSource = async (account) => {
    const slot = `${account.tenantId}/${account.id}`;
    const hit = cache.get(slot);
    if (hit && hit.until > clock.now().getTime()) return hit.value;
    const row = await prisma.gatewayAccount.findFirst({
      where: { id: account.id, tenantId: account.tenantId },
      select: { credentialsCiphertext: true, apiBaseUrl: true },
    });
    if (!row) throw new CredentialsUnavailable(`gateway account ${account.id} not found`);
    let opened: Record<string, string> = {};
    try {
      if (row.credentialsCiphertext) opened = vault.open(account.id, row.credentialsCiphertext);
    } catch (err) {
      throw new CredentialsUnavailable((err as Error).message);
    }
    const value: GatewayCredentials = { credentials: opened, apiBaseUrl: row.apiBaseUrl };
    cache.set(slot, { value, until: clock.now().getTime() + CREDENTIALS_TTL_MS });
    return value;
  };
  const sandbox = new SandboxAdapter(prisma, opts.read);
  // A real adapter is registered here and given `credentials`.
  // The payer lookup is shared with Pagar.me: a Stripe Pix names its payer in billing_details.
  // One lookup of who pays behind a reference, for the three adapters that must name a Pix payer.
  const payerOf = payerLookup(prisma);
  const returnUrl = opts.publicUrl ? `${opts.publicUrl.replace(/\/+$/, "")}${PAYMENT_RETURN_PATH}` : undefined;
  const stripe = new StripeAdapter(credentials, { payerOf, ...(returnUrl ? { returnUrl } : {}) });
  const pagarme = new PagarmeAdapter(credentials, { payerOf });
  const mercadopago = new MercadoPagoAdapter(credentials, { payerOf, recurrenceOf: recurrenceLookup(prisma) });
  const adapters = new Map<string, GatewayAdapter>([
    [sandbox.provider, sandbox],
    [stripe.provider, stripe],
    [pagarme.provider, pagarme],
    [mercadopago.provider, mercadopago],
  ]);
  return {
    sandbox,
    vault,
    credentials,
    forgetCredentials: (accountId) => {
      for (const slot of cache.keys()) if (slot.endsWith(`/${accountId}`)) cache.delete(slot);
    },
    has: (provider) => adapters.has(provider),
    adapter(provider) {
      const adapter = adapters.get(provider);
      if (!adapter) throw new Error(`no gateway adapter for provider ${provider}`);
      return adapter;
    },
  };
}

export function accountRef(account: Pick<GatewayAccount, "id" | "tenantId" | "provider" | "capabilities">): GatewayAccountRef {
  return {
    id: account.id,
    tenantId: account.tenantId,
    provider: account.provider,
    capabilities: capabilitiesSchema.parse(account.capabilities),
  };
}
