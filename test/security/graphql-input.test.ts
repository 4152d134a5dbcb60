// GraphQL side of malformed input: it once reached PostgreSQL and came back as a masked
// 500, and masked errors were never logged. NUL however it is escaped, unpaired surrogates, input
// nested past 40 levels and variables of the wrong type are now 400s; whatever is still masked is
// logged with its cause and the request id.
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { makeCustomer, makePayment, makeSubscription } from "../helpers/factories.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { firstError, graphqlRequest } from "./graphql-http.ts";

const customerQuery = "query($e: String!) { customer(externalId: $e) { id } }";

/** `{"a":{"a":…1…}}`, `levels` objects deep, as raw JSON text. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("input the database cannot hold", () => {
  it("answers U+0000 in a document string with 400 invalid_parameter, however it is escaped", async () => {
    const t = await newTenant();
    for (const escaped of ["\\u0000", "\\u{0}", "\\u{000000}", "a\\u{0}b"]) {
      const r = await graphqlRequest({ body: { query: `{ customer(externalId: "${escaped}") { id } }` }, token: t.readKey });
      expect({ escaped, status: r.status, body: firstError(r) }).toEqual({
        escaped,
        status: 400,
        body: { error: "parameters must not contain NUL characters", code: "invalid_parameter" },
      });
    }
  });

  it("answers an unpaired surrogate in variables (values or keys) with 400 invalid_parameter, and keeps paired ones", async () => {
    const t = await newTenant();
    const bodies = [
      `{"query":"${customerQuery}","variables":{"e":"a\\ud800b"}}`,
      `{"query":"${customerQuery}","variables":{"e":"\\udc00"}}`,
      `{"query":"${customerQuery}","variables":{"e":"\\udc00\\ud800"}}`,
      `{"query":"${customerQuery}","variables":{"e":"x","\\ud800":"y"}}`,
      `{"query":"${customerQuery}","variables":{"e":"a\\u0000"}}`,
    ];
    for (const body of bodies) {
      const r = await graphqlRequest({ body, token: t.readKey });
      expect({ body, status: r.status, code: firstError(r)?.code }).toEqual({ body, status: 400, code: "invalid_parameter" });
    }
    const c = await makeCustomer(t, "emoji-\u{1F600}");
    const ok = await graphqlRequest({ body: `{"query":"${customerQuery}","variables":{"e":"emoji-\\ud83d\\ude00"}}`, token: t.readKey });
    expect(ok.body).toEqual({ data: { customer: { id: c.id } } });
  });

  it("answers variables nested past 40 levels and literal lists nested past 40 levels with 400, not 500", async () => {
    const t = await newTenant();
    const deepVariables = await graphqlRequest({ body: `{"query":"${customerQuery}","variables":{"e":${nested(60)}}}`, token: t.readKey });
    expect(deepVariables.status).toBe(400);
    expect(firstError(deepVariables)).toEqual({ error: "variables must not be nested more than 40 levels deep", code: "invalid_parameter" });
    const list = `${"[".repeat(60)}1${"]".repeat(60)}`;
    const deepLiteral = await graphqlRequest({ body: { query: `{ customer(externalId: ${list}) { id } }` }, token: t.readKey });
    expect(deepLiteral.status).toBe(400);
    expect(deepLiteral.body.errors.map((e: any) => e.extensions?.body?.error)).toContain("input values must not be nested more than 40 levels deep");
  });

  it("answers a variable of the wrong type with 400 invalid_argument, not an internal error", async () => {
    const t = await newTenant();
    const r = await graphqlRequest({ body: `{"query":"${customerQuery}","variables":{"e":${nested(3)}}}`, token: t.readKey });
    expect(r.status).toBeLessThan(500);
    expect(firstError(r)?.code).toBe("invalid_argument");
  });
});

describe("masked errors", () => {
  const restore: (() => void)[] = [];
  afterEach(() => restore.splice(0).forEach((f) => f()));

  /** Points the shared service's logger at an array for one test. */
  async function captureLogs() {
    const svc = await testService();
    const lines: any[] = [];
    const original = svc.runtime.logger;
    svc.runtime.logger = pino({ level: "info" }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    restore.push(() => (svc.runtime.logger = original));
    return { svc, lines };
  }

  it("logs an error masked as internal with its cause, the field path and the request id", async () => {
    const { svc, lines } = await captureLogs();
    const t = await newTenant();
    const c = await makeCustomer(t);
    const s = await makeSubscription(t, c.id);
    const p = await makePayment(t, c.id, s.id, 4990);
    svc.runtime.faults = () => {
      throw new Error("simulated fault: connection reset by peer");
    };
    restore.push(() => delete svc.runtime.faults);
    const r = await graphqlRequest({
      body: { query: `mutation($p: String!) { refundPayment(id: $p, amountCents: 100, reason: "x", revoke: "none") { level message } }`, variables: { p: p.id } },
      token: t.writeKey,
      headers: { "x-request-id": "req-masked-1" },
    });
    expect(firstError(r)).toEqual({ error: "internal error", code: "internal" });
    const logged = lines.filter((l) => l.err?.message === "simulated fault: connection reset by peer");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, requestId: "req-masked-1", path: "refundPayment" });
    expect(logged[0].err.stack).toContain("simulated fault");
  });

  it("logs an error masked outside execution (while resolving the caller) with its cause", async () => {
    const { svc, lines } = await captureLogs();
    const t = await newTenant();
    const get = svc.runtime.keyCache.get;
    svc.runtime.keyCache.get = () => {
      throw new Error("simulated fault: key cache corrupted");
    };
    restore.push(() => (svc.runtime.keyCache.get = get));
    const r = await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: t.readKey });
    expect(firstError(r)).toEqual({ error: "internal error", code: "internal" });
    expect(lines.filter((l) => l.err?.message === "simulated fault: key cache corrupted" && l.level === 50)).toHaveLength(1);
  });
});
