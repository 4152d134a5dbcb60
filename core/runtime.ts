// The long-lived pieces one process shares (database, key cache, gateways, logger, configuration),
// handed to every use case; create-runtime.ts builds them.
import type { Logger } from "pino";
import type { Db } from "../prisma/client.ts";
import type { KeyCache } from "./auth/key-cache.ts";
import type { EntitlementsCache } from "./entitlements/entitlements-cache.ts";
import type { EntitlementsAnswer } from "./entitlements/get-entitlements.ts";
import type { KeyUsage } from "./auth/key-usage.ts";
import type { Gateways } from "./gateways/registry.ts";
import type { CredentialKeyRing } from "./gateways/credentials-vault.ts";
import type { Clock } from "./shared/clock.ts";
import type { FaultPoint } from "./shared/crash-faults.ts";
import type { Leases } from "./shared/leases.ts";

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
  /** GET /v1/entitlements answers, dropped by the notifications of the transactions that change them. */
  entitlements: EntitlementsCache<EntitlementsAnswer>;
  /** API keys' "last used", noted in memory and written in batches (key-usage.ts). */
  keyUsage: KeyUsage;
  logger: Logger;
  config: RuntimeConfig;
  /** Random service keys from the database (service_secrets), loaded once. Never logged. */
  secrets: ServiceSecrets;
  /** Wall clock (LIVE tenants, transport times). Sandbox tenants derive their own from it. */
  wallClock: Clock;
  gateways: Gateways;
  /** Lease durations (env: BILLING_LEASE_MS, REFUND_LEASE_MS, WEBHOOK_LEASE_MS, EMAIL_LEASE_MS, PAYMENT_IN_FLIGHT_MS, JOB_LEASE_MS). */
  leases: Leases;
  /** Fault injection for crash tests: called at named points; throwing there simulates a crash. Unset in production. */
  faults?: (point: FaultPoint) => void;
}

export interface ServiceSecrets {
  /** Signs renewal-campaign link tokens (campaignLinkToken). 32 random bytes, not derived from ADMIN_TOKEN. */
  campaignLinkKey: Buffer;
}
