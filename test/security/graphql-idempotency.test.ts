// One entry: Idempotency-Key holds on /graphql as on /v1. An internal tool retrying a
// refundPayment with the same key gets the first answer and no second refund; another request under
// the same key is refused; a key that may not make the request never hears a stored answer.
import { describe, expect, it } from "vitest";
import { testService, ADMIN_TOKEN } from "../helpers/service.ts";
import { op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { subscribe } from "../helpers/billing.ts";
import { firstError, graphqlRequest } from "./graphql-http.ts";

const REFUND = `mutation($p: String!, $a: Int!) { refundPayment(id: $p, amountCents: $a, reason: "duplicate", revoke: "none") { __typename } }`;
const key = (tag: string) => ({ "idempotency-key": `${tag}-${Math.random().toString(36).slice(2)}` });

/** A tenant and the paid first payment of a card checkout (sandbox gateway: refundable). */
async function paidPayment() {
  const t = await newTenant();
  const { subscription_id } = await subscribe(t.monthlyOfferId);
  const p = await (await testService()).runtime.db.prisma.payment.findFirstOrThrow({ where: { subscriptionId: subscription_id } });
  return { t, p };
}

const refunds = async (paymentId: string) => (await testService()).runtime.db.prisma.refund.count({ where: { paymentId } });

describe("Idempotency-Key on /graphql", () => {
  it("a refundPayment retried with the same key gets the first answer byte for byte, and one refund is made", async () => {
    const { t, p } = await paidPayment();
    const headers = key("refund");
    const body = { query: REFUND, variables: { p: p.id, a: 1000 } };
    const first = await graphqlRequest({ body, token: t.writeKey, headers });
    expect(first.status).toBe(200);
    expect(first.body.errors, first.text).toBeUndefined();
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await graphqlRequest({ body, token: t.writeKey, headers });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    // The first answer's media type too: a client reading the replay as text/plain would not parse it.
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(await refunds(p.id)).toBe(1);
    // Without the key the same mutation runs again: the header is what makes the retry safe.
    expect((await graphqlRequest({ body, token: t.writeKey })).body.errors).toBeUndefined();
    expect(await refunds(p.id)).toBe(2);
  });

  it("the same key with other variables is 422 idempotency_key_reused, and nothing runs", async () => {
    const { t, p } = await paidPayment();
    const headers = key("refund");
    await graphqlRequest({ body: { query: REFUND, variables: { p: p.id, a: 1000 } }, token: t.writeKey, headers });
    const other = await graphqlRequest({ body: { query: REFUND, variables: { p: p.id, a: 2000 } }, token: t.writeKey, headers });
    expect(firstError(other)).toMatchObject({ code: "idempotency_key_reused" });
    expect(other.headers["idempotent-replayed"]).toBeUndefined();
    expect(await refunds(p.id)).toBe(1);
  });

  it("a read key presenting a write key's Idempotency-Key hears insufficient_scope, never the stored answer; another write key runs its own", async () => {
    const { t, p } = await paidPayment();
    const headers = key("refund");
    const body = { query: REFUND, variables: { p: p.id, a: 1000 } };
    const first = await graphqlRequest({ body, token: t.writeKey, headers });
    const read = await graphqlRequest({ body, token: t.readKey, headers });
    expect(firstError(read)).toMatchObject({ code: "insufficient_scope" });
    expect(read.headers["idempotent-replayed"]).toBeUndefined();
    expect(read.text).not.toBe(first.text);
    const { createApiKey } = await op(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: WRITE) { key } }`, { t: t.tenantId });
    const second = await graphqlRequest({ body, token: createApiKey.key, headers });
    expect(second.headers["idempotent-replayed"]).toBeUndefined();
    expect(await refunds(p.id)).toBe(2);
  });

  it("a malformed key is 400 invalid_idempotency_key; queries and the operator token ignore the header", async () => {
    const { t, p } = await paidPayment();
    const bad = await graphqlRequest({ body: { query: REFUND, variables: { p: p.id, a: 1000 } }, token: t.writeKey, headers: { "idempotency-key": "x".repeat(300) } });
    expect(firstError(bad)).toMatchObject({ code: "invalid_idempotency_key" });
    expect(await refunds(p.id)).toBe(0);
    const headers = key("q");
    const q1 = await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: t.readKey, headers });
    const q2 = await graphqlRequest({ body: { query: "{ viewer { scope } }" }, token: t.readKey, headers });
    expect([q1.status, q2.status]).toEqual([200, 200]);
    expect(q2.headers["idempotent-replayed"]).toBeUndefined();
    const op1 = await graphqlRequest({ body: { query: "mutation { __typename }" }, token: ADMIN_TOKEN, headers });
    expect(op1.status).toBe(200);
    expect(op1.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("every answer to a tenant key carries its RateLimit-* headers, as /v1's do", async () => {
    const { t } = await paidPayment();
    const r = await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: t.readKey });
    expect(r.headers["ratelimit-limit"]).toBe("200");
    expect(r.headers["ratelimit-policy"]).toBe("200;w=2");
    expect(r.headers["ratelimit-remaining"]).toBe("199");
  });
});
