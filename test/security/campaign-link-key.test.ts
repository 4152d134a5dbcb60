// Campaign link tokens were once an HMAC keyed by a derivative of ADMIN_TOKEN, and a
// read key lists (link id, token) pairs, so a weak operator token fell to an offline search. The
// key is now 32 random bytes kept in the database (service_secrets), made once and shared by every
// instance of a deployment; nothing is derived from ADMIN_TOKEN.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { campaignLinkToken } from "../../core/campaigns/campaign-rules.ts";
import { createRuntime } from "../../core/create-runtime.ts";
import { createLogger } from "../../core/shared/logger.ts";
import { sha256Hex } from "../../core/shared/secrets.ts";
import { openDb } from "../../prisma/client.ts";
import { advanceClock, subscribe } from "../helpers/billing.ts";
import { call } from "../helpers/http.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { campaignLink, campaignLinks, createCampaign } from "../campaigns/campaign-helpers.ts";

/** The derivation the service used before the fix: what an offline search tries for each guess of ADMIN_TOKEN. */
function oldDerivation(adminToken: string, linkId: string): string {
  const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const key = createHmac("sha256", adminToken).update("renewal-campaign-link-token/v1").digest();
  let n = BigInt(`0x${createHmac("sha256", key).update(linkId).digest("hex")}`);
  let out = "";
  while (out.length < 40) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return `pl_${out}`;
}

/** A campaign with one customer's link; the (link id, token) pair a read key lists. */
async function listedLink() {
  const t = await newTenant();
  await advanceClock(t, "2027-03-01T12:00:00.000Z");
  await subscribe(t.monthlyOfferId, { external_id: "ana", email: `ana-${Math.random().toString(36).slice(2, 8)}@example.com` });
  const campaignId = await createCampaign(t);
  expect((await campaignLink(t, campaignId, "ana")).status).toBe(200);
  const listed = await campaignLinks(t, campaignId, "", t.readKey);
  expect(listed.status).toBe(200);
  const element = listed.body.results[0];
  const prisma = (await testService()).runtime.db.prisma;
  const { id: linkId } = await prisma.link.findFirstOrThrow({ where: { tenantId: t.tenantId, campaignId, kind: "RENEWAL_CAMPAIGN" } });
  return { t, campaignId, linkId, token: element.token as string, url: element.url as string };
}

describe("campaign link tokens are not derived from ADMIN_TOKEN", () => {
  it("a listed (link id, token) pair does not confirm a guess of the operator token", async () => {
    const { linkId, token, url } = await listedLink();
    // The offline search of the finding, given the right guess: it must not match.
    expect(token).not.toBe(oldDerivation(ADMIN_TOKEN, linkId));
    // The token is the HMAC of the link id under the random key of the database, which is 32 bytes.
    const row = await (await testService()).runtime.db.prisma.serviceSecret.findUniqueOrThrow({ where: { name: "campaign_link_key" } });
    const key = Buffer.from(row.value, "hex");
    expect(key).toHaveLength(32);
    expect(token).toBe(campaignLinkToken(key, linkId));
    // And the link still pays: /pay takes the listed token.
    expect(url).toBe(`http://localhost/pay/${token}`);
    expect((await call("GET", `/pay/${token}`)).status).toBe(200);
  });

  it("two deployments with the same ADMIN_TOKEN have different keys; a restart keeps its key", async () => {
    const mine = (await testService()).runtime;
    const other = await openDb({ url: "", pgliteDir: "memory://" });
    try {
      const config = { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" };
      const first = await createRuntime(other, createLogger("silent"), config);
      expect(first.secrets.campaignLinkKey).toHaveLength(32);
      expect(first.secrets.campaignLinkKey.equals(mine.secrets.campaignLinkKey)).toBe(false);
      const restarted = await createRuntime(other, createLogger("silent"), config);
      expect(restarted.secrets.campaignLinkKey.equals(first.secrets.campaignLinkKey)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("when the key is first made, links already stored are re-hashed with it (old tokens stop working)", async () => {
    const db = await openDb({ url: "", pgliteDir: "memory://" });
    try {
      // A database from before the fix: a campaign link hashed under the ADMIN_TOKEN derivation, no key yet.
      const linkId = "lnk_01JBEFOREFIX0000000000000A";
      const oldToken = oldDerivation(ADMIN_TOKEN, linkId);
      await db.prisma.link.create({
        data: { id: linkId, tenantId: "tn_01JBEFOREFIX0000000000000A", kind: "RENEWAL_CAMPAIGN", tokenHash: sha256Hex(oldToken), status: "OPEN" },
      });
      const runtime = await createRuntime(db, createLogger("silent"), { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" });
      const { tokenHash } = await db.prisma.link.findUniqueOrThrow({ where: { id: linkId } });
      expect(tokenHash).toBe(sha256Hex(campaignLinkToken(runtime.secrets.campaignLinkKey, linkId)));
      expect(tokenHash).not.toBe(sha256Hex(oldToken));
    } finally {
      await db.close();
    }
  });
});
