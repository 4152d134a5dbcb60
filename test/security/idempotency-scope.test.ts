// An Idempotency-Key replay never crosses API keys, and authentication, scope and the
// read-only rule are decided before any replay (billing-api.md "Authentication" items 3-7).
import { describe, expect, it } from "vitest";
import { op, post } from "../helpers/http.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { makeCustomer } from "../helpers/factories.ts";
import { subscribe } from "../helpers/billing.ts";

const withKey = (k: string) => ({ headers: { "idempotency-key": k } });
const uniqueKey = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}`;

async function newWriteKey(t: TestTenant): Promise<string> {
  const { createApiKey } = await op(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: WRITE) { key } }`, { t: t.tenantId });
  return createApiKey.key as string;
}

async function setReadOnly(t: TestTenant, readOnly: boolean) {
  await op(`mutation($t: ID!, $r: Boolean!) { setTenantReadOnly(tenantId: $t, readOnly: $r) { readOnly } }`, { t: t.tenantId, r: readOnly });
}

describe("Idempotency-Key across API keys", () => {
  it("a read key posting a write key's Idempotency-Key hears 403 insufficient_scope, byte-identical, never the write key's answer", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const path = `/v1/subscriptions/${id}/payment-method-link`;
    const k = uniqueKey("pml");

    const first = await post(path, t.writeKey, undefined, withKey(k));
    expect(first.status).toBe(201);
    expect(first.body.token).toMatch(/\S/);

    const plain = await post(path, t.readKey);
    const keyed = await post(path, t.readKey, undefined, withKey(k));
    expect(keyed.status).toBe(403);
    expect(keyed.body.code).toBe("insufficient_scope");
    expect(keyed.text).toBe(plain.text);
    expect(keyed.headers.get("idempotent-replayed")).toBeNull();
    expect(keyed.text).not.toContain(first.body.token);
  });

  it("a second write key with the same Idempotency-Key gets its own fresh answer; each key replays its own", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const path = `/v1/subscriptions/${id}/payment-method-link`;
    const k = uniqueKey("pml");
    const secondKey = await newWriteKey(t);

    const first = await post(path, t.writeKey, undefined, withKey(k));
    const second = await post(path, secondKey, undefined, withKey(k));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.body.token).not.toBe(first.body.token);

    const firstAgain = await post(path, t.writeKey, undefined, withKey(k));
    const secondAgain = await post(path, secondKey, undefined, withKey(k));
    expect(firstAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(firstAgain.text).toBe(first.text);
    expect(secondAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(secondAgain.text).toBe(second.text);

    // Same key, another body: still 422 idempotency_key_reused within one API key.
    const c = await makeCustomer(t);
    const k2 = uniqueKey("email");
    expect((await post(`/v1/customers/${c.externalId}/email`, secondKey, { email: "a@example.com" }, withKey(k2))).status).toBe(200);
    const reused = await post(`/v1/customers/${c.externalId}/email`, secondKey, { email: "b@example.com" }, withKey(k2));
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("idempotency_key_reused");
  });

  it("a read-only account's write key hears account_locked on a non-excepted route even for a key used before the lock; excepted routes still replay", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const linkPath = `/v1/subscriptions/${id}/payment-method-link`;
    const emailPath = `/v1/customers/${c.externalId}/email`;
    const kLink = uniqueKey("pml");
    const kEmail = uniqueKey("email");
    const link = await post(linkPath, t.writeKey, undefined, withKey(kLink));
    expect(link.status).toBe(201);
    const email = await post(emailPath, t.writeKey, { email: "before-lock@example.com" }, withKey(kEmail));
    expect(email.status).toBe(200);

    await setReadOnly(t, true);
    try {
      const plain = await post(linkPath, t.writeKey);
      const keyed = await post(linkPath, t.writeKey, undefined, withKey(kLink));
      expect(keyed.status).toBe(403);
      expect(keyed.body.code).toBe("account_locked");
      expect(keyed.text).toBe(plain.text);
      expect(keyed.headers.get("idempotent-replayed")).toBeNull();
      expect(keyed.text).not.toContain(link.body.token);

      // Customer edits stay allowed in read-only mode, so their replay stands.
      const replayed = await post(emailPath, t.writeKey, { email: "before-lock@example.com" }, withKey(kEmail));
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.text).toBe(email.text);

      // A read key on a locked account hears insufficient_scope (scope outranks the lock, as on GraphQL).
      const read = await post(linkPath, t.readKey, undefined, withKey(kLink));
      expect(read.body.code).toBe("insufficient_scope");
    } finally {
      await setReadOnly(t, false);
    }
  });
});
