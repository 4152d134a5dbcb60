// Customer edits: POST /v1/customers/{external_id} and POST /v1/customers/{external_id}/email, through
// HTTP (every answer checked against the OpenAPI document) and the GraphQL mutations behind them.
import { describe, expect, it } from "vitest";
import { CPF, subscribe } from "../helpers/billing.ts";
import { makeCustomer } from "../helpers/factories.ts";
import { call, get, gql, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";

const prisma = async () => (await testService()).runtime.db.prisma;

/** A customer born at the hosted checkout: mobile +5511987654321, CPF, and a sandbox gateway account to sync. */
async function checkoutCustomer(t: TestTenant) {
  const externalId = `cs-${Math.random().toString(36).slice(2, 10)}`;
  await subscribe(t.monthlyOfferId, { external_id: externalId, email: `${externalId}@example.com`, name: "Maria Silva" });
  return { externalId, email: `${externalId}@example.com` };
}

/** Everything an edit could touch, read back through GraphQL (the record) and the database (doc, audit, sync rows). */
async function snapshot(t: TestTenant, externalId: string) {
  const { customer } = await op(`query($e: String!) { customer(externalId: $e) { id externalId name email phone } }`, { e: externalId }, t.readKey);
  const db = await prisma();
  const row = await db.customer.findUniqueOrThrow({ where: { id: customer.id } });
  return {
    customer,
    doc: row.doc,
    audits: await db.auditLog.count({ where: { tenantId: t.tenantId, targetId: customer.id } }),
    syncs: await db.gatewayEvent.count({ where: { tenantId: t.tenantId, code: customer.id, kind: "customer_sync" } }),
  };
}

const audits = async (t: TestTenant, customerId: string) =>
  (await prisma()).auditLog.findMany({ where: { tenantId: t.tenantId, targetId: customerId }, orderBy: { id: "asc" } });
const syncs = async (t: TestTenant, customerId: string) =>
  (await prisma()).gatewayEvent.findMany({ where: { tenantId: t.tenantId, code: customerId, kind: "customer_sync" }, orderBy: { id: "asc" } });

describe("POST /v1/customers/{external_id}", () => {
  it("edits name, e-mail and mobile, writes one audit row and syncs the gateway", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, { name: "  Ana Souza ", email: " Ana.Souza@Example.com", phone: "11 98888-7777" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: "Ana Souza", email: "ana.souza@example.com", phone: "+5511988887777", notice: null });

    const after = await snapshot(t, c.externalId);
    expect(after.customer).toEqual({ ...before.customer, name: "Ana Souza", email: "ana.souza@example.com", phone: "+5511988887777" });
    expect(after.doc).toBe(CPF);
    const subs = await get(`/v1/customers/${c.externalId}/subscriptions`, t.readKey);
    expect(subs.body.subscriptions[0].customer.email).toBe("ana.souza@example.com");

    const [audit, ...more] = await audits(t, before.customer.id);
    expect(more).toEqual([]);
    const { id: keyId } = (await (await prisma()).apiKey.findFirstOrThrow({ where: { tenantId: t.tenantId, scope: "WRITE" } }));
    expect(audit).toMatchObject({ action: "customer.updated", targetType: "customer", actor: `key:${keyId}` });
    expect(audit!.diff).toEqual({
      name: { from: "Maria Silva", to: "Ana Souza" },
      email: { from: c.email, to: "ana.souza@example.com" },
      phone: { from: "+5511987654321", to: "+5511988887777" },
    });
    // The diff holds the three edited fields and nothing else: no key, no document, no card data.
    const diffText = JSON.stringify(audit!.diff);
    for (const secret of [t.writeKey, t.readKey, CPF, "4242"]) expect(diffText).not.toContain(secret);

    const [sync] = await syncs(t, before.customer.id);
    expect(sync).toMatchObject({ provider: "sandbox", outcome: "approved", detailCode: "", subscriptionId: null });
    // Gateway event rows carry codes only, never the personal data that was sent.
    expect(JSON.stringify(sync)).not.toContain("ana.souza");
  });

  it("leaves null and absent fields untouched", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, { name: "Ana Souza", email: null, phone: null, doc: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: "Ana Souza", email: c.email, phone: "+5511987654321", notice: null });
    expect((await snapshot(t, c.externalId)).customer).toEqual({ ...before.customer, name: "Ana Souza" });
    expect((await audits(t, before.customer.id)).map((a) => a.diff)).toEqual([{ name: { from: "Maria Silva", to: "Ana Souza" } }]);
  });

  it("stores mobiles in E.164: a Brazilian number without + becomes +55, foreign mobiles keep their code", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    for (const [input, e164] of [
      ["(21) 99876-5432", "+5521998765432"],
      ["5511912345678", "+5511912345678"],
      ["+351 912 345 678", "+351912345678"],
      ["+1 415 555 2671", "+14155552671"],
    ]) {
      const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, { phone: input });
      expect({ input, status: r.status, phone: r.body.phone }).toEqual({ input, status: 200, phone: e164 });
    }
  });

  it("refuses landlines, short, long and malformed phones with 422 telefone inválido, changing nothing", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    for (const phone of ["(11) 3333-4444", "+55 11 3333-4444", "+44 20 7946 0018", "98765-4321", "+5511987654", "+55 11 98765-432100", "119876543210", "abc11987654321", "", "   "]) {
      const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, { name: "Outro Nome", phone });
      expect({ phone, status: r.status, body: r.body }).toEqual({ phone, status: 422, body: { error: "telefone inválido", code: "invalid_phone" } });
    }
    expect(await snapshot(t, c.externalId)).toEqual(before);
  });

  it("refuses malformed e-mails with 422 invalid_email, changing nothing", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    for (const email of ["not-an-email", "a@b", "a b@c.com", "a..b@example.com", "", `${"x".repeat(250)}@example.com`]) {
      const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, { name: "Outro Nome", email });
      expect({ email, status: r.status, body: r.body }).toEqual({ email, status: 422, body: { error: "e-mail inválido", code: "invalid_email" } });
    }
    expect(await snapshot(t, c.externalId)).toEqual(before);
  });

  it("keeps e-mails unique in the tenant (422 with the contract's message), not across tenants", async () => {
    const t = await newTenant();
    const a = await checkoutCustomer(t);
    const b = await checkoutCustomer(t);
    const before = await snapshot(t, a.externalId);
    const r = await post(`/v1/customers/${a.externalId}`, t.writeKey, { name: "Outro Nome", email: b.email.toUpperCase() });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: "já existe um cliente com esse e-mail neste tenant", code: "email_taken" });
    expect(await snapshot(t, a.externalId)).toEqual(before);
    // Its own address is no conflict; another tenant's customer with the address is none either.
    expect((await post(`/v1/customers/${a.externalId}`, t.writeKey, { email: a.email })).status).toBe(200);
    const other = await newTenant();
    const o = await checkoutCustomer(other);
    expect((await post(`/v1/customers/${o.externalId}`, other.writeKey, { email: b.email })).status).toBe(200);
  });

  it("lets exactly one of two concurrent edits take an address", async () => {
    const t = await newTenant();
    const a = await checkoutCustomer(t);
    const b = await checkoutCustomer(t);
    const results = await Promise.all([a, b].map((c) => post(`/v1/customers/${c.externalId}`, t.writeKey, { email: "disputado@example.com" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(results.find((r) => r.status === 422)!.body.code).toBe("email_taken");
  });

  it("refuses names that are too short or too long with 422 invalid_name", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    for (const name of ["", " A ", "x".repeat(201), "Ana\u0007Souza"]) {
      const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, { name });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 422, code: "invalid_name" });
    }
    expect(await snapshot(t, c.externalId)).toEqual(before);
  });

  it("requires a mobile from an old customer without one, for any edit", async () => {
    const t = await newTenant();
    const old = await makeCustomer(t);
    const before = await snapshot(t, old.externalId);
    expect(before.customer.phone).toBeNull();
    for (const body of [{ name: "Nome Novo" }, { email: "novo@example.com" }, {}, { phone: null, name: "Nome Novo" }]) {
      const r = await post(`/v1/customers/${old.externalId}`, t.writeKey, body);
      expect({ body, status: r.status, answer: r.body }).toEqual({ body, status: 422, answer: { error: "informe o celular do cliente", code: "phone_required" } });
    }
    // An invalid phone is reported as such, not as missing.
    expect((await post(`/v1/customers/${old.externalId}`, t.writeKey, { phone: "(11) 3333-4444" })).body.error).toBe("telefone inválido");
    expect(await snapshot(t, old.externalId)).toEqual(before);

    const r = await post(`/v1/customers/${old.externalId}`, t.writeKey, { name: "Nome Novo", phone: "11987654321" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: "Nome Novo", email: old.email, phone: "+5511987654321", notice: null });
    expect((await post(`/v1/customers/${old.externalId}`, t.writeKey, { name: "Nome Mais Novo" })).status).toBe(200);
  });

  it("treats a stored phone that is not a valid mobile as missing", async () => {
    const t = await newTenant();
    const old = await makeCustomer(t);
    await (await prisma()).customer.update({ where: { id: old.id }, data: { phone: "(11) 3333-4444" } });
    const r = await post(`/v1/customers/${old.externalId}`, t.writeKey, { name: "Nome Novo" });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("informe o celular do cliente");
  });

  it("refuses doc and external_id with 400 field_not_editable in every encoding, changing nothing", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    const cases: { body: Record<string, unknown>; field: string; as?: "json" | "form" | "multipart" }[] = [
      { body: { doc: "11144477735" }, field: "doc" },
      { body: { name: "Outro Nome", doc: CPF }, field: "doc" },
      { body: { name: "Outro Nome", doc: "" }, field: "doc" },
      { body: { external_id: "novo-id" }, field: "external_id" },
      { body: { name: "Outro Nome", external_id: c.externalId }, field: "external_id" },
      { body: { name: "Outro Nome", doc: "11144477735" }, field: "doc", as: "form" },
      { body: { name: "Outro Nome", external_id: "novo-id" }, field: "external_id", as: "multipart" },
    ];
    for (const k of cases) {
      const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, k.body, { as: k.as });
      expect({ sent: k.body, status: r.status, body: r.body }).toEqual({
        sent: k.body,
        status: 400,
        body: { error: `${k.field} não pode ser alterado`, code: "field_not_editable", field: k.field },
      });
    }
    expect(await snapshot(t, c.externalId)).toEqual(before);
    expect((await get(`/v1/customers/novo-id/subscriptions`, t.readKey)).status).toBe(404);
  });

  it("answers an empty body with the record as it is: no audit row, no gateway call", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    const expected = { name: "Maria Silva", email: c.email, phone: "+5511987654321", notice: null };
    for (const body of [{}, { name: null, email: null, phone: null }, undefined]) {
      const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, body);
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: expected });
    }
    expect(await snapshot(t, c.externalId)).toEqual(before);
  });

  it("refuses fields of the wrong type with 400 invalid_body", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    for (const body of [{ name: 42 }, { phone: 11987654321 }, { email: ["a@example.com"] }, { name: { first: "Ana" } }]) {
      const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, body);
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: "invalid_body" });
    }
    for (const raw of ["[1]", "null", "{bad json"]) expect((await call("POST", `/v1/customers/${c.externalId}`, { key: t.writeKey, body: raw })).status).toBe(400);
    expect(await snapshot(t, c.externalId)).toEqual(before);
  });

  it("answers the same 404, byte for byte, for an unknown and for another tenant's customer, and changes neither", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const foreign = await checkoutCustomer(other);
    const before = await snapshot(other, foreign.externalId);
    const body = { name: "Invasor", phone: "11987654321" };
    const unknown = await post(`/v1/customers/nobody-here`, t.writeKey, body);
    const stolen = await post(`/v1/customers/${foreign.externalId}`, t.writeKey, body);
    expect(unknown.status).toBe(404);
    expect(stolen.status).toBe(404);
    expect(stolen.text).toBe(unknown.text);
    expect(unknown.body).toEqual({ error: "customer not found", code: "not_found" });
    const stolenEmail = await post(`/v1/customers/${foreign.externalId}/email`, t.writeKey, { email: "invasor@example.com" });
    const unknownEmail = await post(`/v1/customers/nobody-here/email`, t.writeKey, { email: "invasor@example.com" });
    expect(stolenEmail.status).toBe(404);
    expect(stolenEmail.text).toBe(unknownEmail.text);
    expect(stolenEmail.text).toBe(unknown.text);
    expect(await snapshot(other, foreign.externalId)).toEqual(before);
  });

  it("refuses a read key with 403 insufficient_scope and allows edits while the account is read-only", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const before = await snapshot(t, c.externalId);
    const refused = await post(`/v1/customers/${c.externalId}`, t.readKey, { name: "Ana Souza" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.any(String), code: "insufficient_scope" });
    expect(await snapshot(t, c.externalId)).toEqual(before);

    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { readOnly } }`, { t: t.tenantId });
    const locked = await post(`/v1/customers/${c.externalId}`, t.writeKey, { name: "Ana Souza", phone: "+55 11 98888-7777" });
    expect(locked.status).toBe(200);
    expect(locked.body).toEqual({ name: "Ana Souza", email: c.email, phone: "+5511988887777", notice: null });
    expect((await post(`/v1/customers/${c.externalId}`, t.readKey, { name: "Outra" })).body.code).toBe("insufficient_scope");
    // Still locked for other writes.
    const sub = (await get(`/v1/customers/${c.externalId}/subscriptions`, t.readKey)).body.subscriptions[0].subscription_id;
    expect((await post(`/v1/subscriptions/${sub}/remove-coupon`, t.writeKey)).body.code).toBe("account_locked");
  });

  it("reports a failed gateway sync as a notice: the change stands, with its audit row", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const { customer } = await snapshot(t, c.externalId);
    const r = await post(`/v1/customers/${c.externalId}`, t.writeKey, { email: "maria@sync-fail.example", name: "Maria S. Silva" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: "Maria S. Silva", email: "maria@sync-fail.example", phone: "+5511987654321", notice: expect.stringContaining("customer_sync_refused") });
    expect((await snapshot(t, c.externalId)).customer.email).toBe("maria@sync-fail.example");
    expect((await audits(t, customer.id)).map((a) => a.action)).toEqual(["customer.updated"]);
    expect((await syncs(t, customer.id)).map((e) => [e.outcome, e.detailCode])).toEqual([["declined", "customer_sync_refused"]]);

    // Resending unchanged values retries the sync (no new audit row); a good address clears the notice.
    const retry = await post(`/v1/customers/${c.externalId}`, t.writeKey, { name: "Maria S. Silva" });
    expect(retry.body.notice).toEqual(expect.any(String));
    expect(await (await prisma()).auditLog.count({ where: { targetId: customer.id } })).toBe(1);
    const fixed = await post(`/v1/customers/${c.externalId}`, t.writeKey, { email: "maria@example.com" });
    expect(fixed.body.notice).toBeNull();
    expect((await syncs(t, customer.id)).map((e) => e.outcome)).toEqual(["declined", "declined", "approved"]);
  });

  it("is the GraphQL mutation updateCustomer, for tenant keys and the operator", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const mutation = `mutation($e: String!, $n: String, $p: String, $t: ID) {
      updateCustomer(externalId: $e, name: $n, phone: $p, tenantId: $t) { name email phone notice } }`;
    const asRead = await gql(mutation, { e: c.externalId, n: "Ana Souza" }, t.readKey);
    expect(asRead.errors?.[0]?.extensions?.code).toBe("insufficient_scope");
    const asWrite = await op(mutation, { e: c.externalId, n: "Ana Souza" }, t.writeKey);
    expect(asWrite.updateCustomer).toEqual({ name: "Ana Souza", email: c.email, phone: "+5511987654321", notice: null });
    const asOperator = await op(mutation, { e: c.externalId, p: "21998765432", t: t.tenantId });
    expect(asOperator.updateCustomer.phone).toBe("+5521998765432");
    const { customer } = await snapshot(t, c.externalId);
    expect((await audits(t, customer.id)).map((a) => a.actor)).toEqual([expect.stringMatching(/^key:/), "operator"]);
    const bad = await gql(mutation, { e: c.externalId, p: "(11) 3333-4444" }, t.writeKey);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: "invalid_phone", status: 422 });
  });
});

describe("POST /v1/customers/{external_id}/email", () => {
  it("changes the e-mail with an audit row and the same gateway sync", async () => {
    const t = await newTenant();
    const c = await checkoutCustomer(t);
    const { customer } = await snapshot(t, c.externalId);
    const r = await post(`/v1/customers/${c.externalId}/email`, t.writeKey, { email: " Nova@Example.com " });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ email: "nova@example.com", notice: null });
    const [audit] = await audits(t, customer.id);
    expect(audit).toMatchObject({ action: "customer.email_updated", diff: { email: { from: c.email, to: "nova@example.com" } } });
    expect((await syncs(t, customer.id)).map((e) => e.outcome)).toEqual(["approved"]);

    const failed = await post(`/v1/customers/${c.externalId}/email`, t.writeKey, { email: "nova@sync-fail.example" });
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({ email: "nova@sync-fail.example", notice: expect.stringContaining("customer_sync_refused") });
    expect((await snapshot(t, c.externalId)).customer.email).toBe("nova@sync-fail.example");
    expect((await audits(t, customer.id)).length).toBe(2);
  });

  it("needs no mobile (its body cannot carry one) and refuses bad or taken addresses, changing nothing", async () => {
    const t = await newTenant();
    const old = await makeCustomer(t);
    const taken = await makeCustomer(t);
    const before = await snapshot(t, old.externalId);
    for (const [body, error] of [
      [{}, "e-mail inválido"],
      [{ email: "a@b" }, "e-mail inválido"],
      [{ email: taken.email }, "já existe um cliente com esse e-mail neste tenant"],
    ] as const) {
      const r = await post(`/v1/customers/${old.externalId}/email`, t.writeKey, body);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 422, error });
    }
    expect(await snapshot(t, old.externalId)).toEqual(before);
    const r = await post(`/v1/customers/${old.externalId}/email`, t.writeKey, { email: "antigo@example.com" });
    expect(r.body).toEqual({ email: "antigo@example.com", notice: null });
    expect((await snapshot(t, old.externalId)).customer.phone).toBeNull();
  });
});
