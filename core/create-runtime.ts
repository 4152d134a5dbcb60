// Builds the Runtime once per process: the key cache warmed, the service secrets loaded (made on the
// first start), the gateway registry with its credentials vault, credentials re-keyed.
import type { Logger } from "pino";
import type { Db } from "../prisma/client.ts";
import { KeyCache } from "./auth/key-cache.ts";
import { EntitlementsCache } from "./entitlements/entitlements-cache.ts";
import { KeyUsage } from "./auth/key-usage.ts";
import { rekeyCampaignLinks } from "./campaigns/rekey-campaign-links.ts";
import { CredentialsVault, loadCredentialKeys } from "./gateways/credentials-vault.ts";
import { rekeyGatewayCredentials } from "./gateways/rekey-gateway-credentials.ts";
import { rekeyTotpSecrets } from "./team/rekey-totp-secrets.ts";
import { createGateways } from "./gateways/registry.ts";
import type { Runtime, RuntimeConfig, ServiceSecrets } from "./runtime.ts";
import type { EntitlementsAnswer } from "./entitlements/get-entitlements.ts";
import { wallClock } from "./shared/clock.ts";
import { leasesFromEnv } from "./shared/leases.ts";
import { ensureServiceSecret } from "./shared/service-secrets.ts";

export async function createRuntime(db: Db, logger: Logger, config: RuntimeConfig): Promise<Runtime> {
  const keyCache = new KeyCache(db);
  await keyCache.start();
  const entitlements = new EntitlementsCache<EntitlementsAnswer>(db);
  await entitlements.start();
  // Made on the first start (stored hashes of existing campaign links re-keyed with it), then read.
  const campaignLinkKey = await ensureServiceSecret(db.prisma, "campaign_link_key", async (tx, key) => void (await rekeyCampaignLinks(tx, key)));
  const secrets: ServiceSecrets = { campaignLinkKey };
  const gateways = createGateways(db.prisma, new CredentialsVault(config.gatewayCredentialKeys ?? loadCredentialKeys()), wallClock, { publicUrl: config.publicUrl, read: db.read.bind(db) });
  // Credentials sealed under an older key are sealed again under the current one (key rotation).
  await rekeyGatewayCredentials(db.prisma, gateways.vault, logger);
  await rekeyTotpSecrets(db.prisma, gateways.vault, logger);
  return { db, keyCache, keyUsage: new KeyUsage(db.prisma, logger), entitlements, logger, config, secrets, wallClock, gateways, leases: leasesFromEnv() };
}
