// A Pagar.me gateway account through the operator's GraphQL (issue 19, bad input): the keys are checked
// live against Pagar.me (the fake) before anything is stored; a wrong or misplaced key is refused with
// Pagar.me's reason in our words and never echoed; the account lists only masked hints; no webhook
// secret is asked for (Pagar.me v5 signs nothing).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { gql, op } from "../helpers/http.ts";
import { deliverNotice, PAGARME_PUBLIC_KEY, PAGARME_SECRET_KEY, pagarmeOffer, sealWithoutNoticeToken, startPagarmeTestbed } from "../helpers/pagarme.ts";
import type { TestService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

let fake: FakePagarme;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

const CREATE = `mutation($t: ID!, $c: JSON, $u: String, $n: String!) { createGatewayAccount(tenantId: $t, provider: PAGARME, name: $n, credentials: $c, apiBaseUrl: $u) { id } }`;

describe("Pagar.me gateway accounts", () => {
  it("the right keys are accepted after a live read; wrong, public-as-secret or mixed keys are refused, never echoed", async () => {
    const t = await newTenant();
    const ok = await gql(CREATE, { t: t.tenantId, c: { secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY }, u: fake.url, n: "pagarme" });
    expect(ok.errors).toBeUndefined();
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: "/customers", status: 200 });
    const listed = await gql(`query($t: ID!) { gatewayAccounts(tenantId: $t) { id provider } }`, { t: t.tenantId });
    expect(JSON.stringify(listed)).not.toContain(PAGARME_SECRET_KEY);

    const wrong = `sk_test_${randomBytes(16).toString("hex")}`;
    for (const [c, reason] of [
      [{ secretKey: wrong }, /does not recognize/],
      [{ secretKey: PAGARME_PUBLIC_KEY }, /public key/],
      [{ secretKey: PAGARME_SECRET_KEY, publicKey: `pk_${"l".repeat(24)}` }, /different environments/],
    ] as const) {
      const r = await gql(CREATE, { t: t.tenantId, c, u: fake.url, n: `bad-${randomBytes(3).toString("hex")}` });
      expect(r.errors?.[0]?.extensions?.code).toBe("gateway_credentials_invalid");
      expect(r.errors?.[0]?.message).toMatch(reason);
      for (const v of Object.values(c)) expect(JSON.stringify(r)).not.toContain(v);
    }
    // Unreachable: refused with "try again", nothing stored.
    const down = await gql(CREATE, { t: t.tenantId, c: { secretKey: PAGARME_SECRET_KEY }, u: "http://127.0.0.1:9", n: "down" });
    expect(down.errors?.[0]?.extensions?.code).toBe("gateway_credentials_invalid");
    const names = (await gql(`query($t: ID!) { gatewayAccounts(tenantId: $t) { name } }`, { t: t.tenantId })).data.gatewayAccounts.map((a: { name: string }) => a.name);
    expect(names.sort()).toEqual(["pagarme", "sandbox"]); // the tenant's own sandbox account and the one good Pagar.me account
  });

  it("the account shows its notice URL with a secret token (a masked hint only among the credentials); a key rotation keeps it", async () => {
    const s = await pagarmeOffer(fake);
    const token = new URL(s.webhookUrl).searchParams.get("token")!;
    expect(s.webhookUrl).toBe(`${svc.runtime.config.publicUrl.replace(/\/+$/, "")}/gateways/${s.accountId}/webhooks?token=${token}`);
    const LIST = `query($t: ID!) { gatewayAccounts(tenantId: $t) { id webhookUrl credentialHints } }`;
    const listed = (await op(LIST, { t: s.t.tenantId })).gatewayAccounts.find((a: { id: string }) => a.id === s.accountId);
    expect(listed.webhookUrl).toBe(s.webhookUrl);
    expect(listed.credentialHints.webhookToken).toMatch(/^wht_\.\.\.[A-Za-z0-9_-]{4}$/);
    expect(JSON.stringify(listed.credentialHints)).not.toContain(token);
    const rotated = await op(`mutation($id: ID!, $c: JSON!) { updateGatewayAccountCredentials(id: $id, credentials: $c) { webhookUrl } }`, {
      id: s.accountId,
      c: { secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY },
    });
    expect(rotated.updateGatewayAccountCredentials.webhookUrl).toBe(s.webhookUrl);
  });

  it("an account made before notice tokens has none: its plain URL is shown; updating its credentials once issues one", async () => {
    const s = await pagarmeOffer(fake);
    await sealWithoutNoticeToken(s.accountId);
    const LIST = `query($t: ID!) { gatewayAccounts(tenantId: $t) { id webhookUrl } }`;
    const listed = (await op(LIST, { t: s.t.tenantId })).gatewayAccounts.find((a: { id: string }) => a.id === s.accountId).webhookUrl;
    expect(listed).toMatch(new RegExp(`/gateways/${s.accountId}/webhooks$`));
    const updated = await op(`mutation($id: ID!, $c: JSON!) { updateGatewayAccountCredentials(id: $id, credentials: $c) { webhookUrl } }`, {
      id: s.accountId,
      c: { secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY },
    });
    const url = updated.updateGatewayAccountCredentials.webhookUrl as string;
    expect(url).toMatch(new RegExp(`/gateways/${s.accountId}/webhooks\\?token=wht_`));
    expect(url).not.toBe(s.webhookUrl);
  });
});
