// The long-lived pieces one process shares: database, key cache, logger and configuration.
import type { Logger } from "pino";
import type { Db } from "../prisma/client.ts";
import { KeyCache } from "./auth/key-cache.ts";
import { createGateways, type Gateways } from "./gateways/registry.ts";
import { CredentialsVault, loadCredentialKeys, type CredentialKeyRing } from "./gateways/credentials-vault.ts";
import { rekeyGatewayCredentials } from "./gateways/rekey-gateway-credentials.ts";
import { wallClock, type Clock } from "./shared/clock.ts";
import type { FaultPoint } from "./shared/crash-faults.ts";
import { leasesFromEnv, type Leases } from "./shared/leases.ts";
import { ensureServiceSecret } from "./shared/service-secrets.ts";
import { rekeyCampaignLinks } from "./campaigns/rekey-campaign-links.ts";

export interface RuntimeConfig {
  adminToken: string;
  publicUrl: string;
  /** GATEWAY_ALLOW_BASE_URL_OVERRIDE=true: a gateway account may name its own loopback apiBaseUrl (tests and their fakes). Off in production. */
  allowGatewayBaseUrlOverride?: boolean;
  /** Keys of the gateway credentials (main.ts loads them first, to refuse a bad key); absent: read from the environment. */
  gatewayCredentialKeys?: CredentialKeyRing;
}

export interface Runtime {
  db: Db;
  keyCache: KeyCache;
  logger: Logger;
  config: RuntimeConfig;
  /** Random service keys from the database (service_secrets), loaded once. Never logged. */
  secrets: ServiceSecrets;
  /** Wall clock (LIVE tenants, transport times). Sandbox tenants derive their own from it. */
  wallClock: Clock;
  gateways: Gateways;
  /** Lease durations (env: BILLING_LEASE_MS, REFUND_LEASE_MS, WEBHOOK_LEASE_MS, PAYMENT_IN_FLIGHT_MS, JOB_LEASE_MS). */
  leases: Leases;
  /** Fault injection for crash tests: called at named points; throwing there simulates a crash. Unset in production. */
  faults?: (point: FaultPoint) => void;
}

export interface ServiceSecrets {
  /** Signs renewal-campaign link tokens (campaignLinkToken). 32 random bytes, not derived from ADMIN_TOKEN. */
  campaignLinkKey: Buffer;
}

export async function createRuntime(db: Db, logger: Logger, config: RuntimeConfig): Promise<Runtime> {
  const keyCache = new KeyCache(db);
  await keyCache.start();
  // Made on the first start (stored hashes of existing campaign links re-keyed with it), then read.
  const campaignLinkKey = await ensureServiceSecret(db.prisma, "campaign_link_key", async (tx, key) => void (await rekeyCampaignLinks(tx, key)));
  const secrets: ServiceSecrets = { campaignLinkKey };
  const gateways = createGateways(db.prisma, new CredentialsVault(config.gatewayCredentialKeys ?? loadCredentialKeys()), wallClock, { publicUrl: config.publicUrl });
  // Credentials sealed under an older key are sealed again under the current one (key rotation).
  await rekeyGatewayCredentials(db.prisma, gateways.vault, logger);
  return { db, keyCache, logger, config, secrets, wallClock, gateways, leases: leasesFromEnv() };
}
