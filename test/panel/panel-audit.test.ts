// The audit log: a write through /v1 with a named key and a write in the panel both appear with actor,
// action, record and address; the filters and keyset pages work; another tenant's entries never show;
// a client's own X-Forwarded-For is not believed (TRUST_PROXY unset).
import { beforeAll, describe, expect, it } from "vitest";
import { gql, op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer } from "../helpers/factories.ts";
import { testService } from "../helpers/service.ts";
import { newMember, signIn } from "../helpers/panel.ts";

const keyOf = (html: string) => /value="(bk_test_[0-9A-Za-z]{32})"/.exec(html)![1]!;
const ymd = (d: Date) => d.toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
const DAY = 86_400_000;

type Entry = { actorKind: string; actor: string; action: string; recordId: string | null; address: string; at: string };
const entriesOf = async (key: string, args = "") =>
  (await gql<{ auditEntries: { entries: Entry[]; nextCursor: string | null } }>(`{ auditEntries${args} { entries { actorKind actor action recordId address at } nextCursor } }`, {}, key)).data.auditEntries;

describe("audit log", () => {
  beforeAll(() => testService());

  it("a /v1 write with a named key and a panel write both appear with who, what, record, when and address; filters work", async () => {
    const t = await newTenant();
    const dev = await newMember(t.tenantId, "DEVELOPER");
    const b = await signIn(dev.email, dev.password);
    const created = await b.submit("/panel/api-keys", "/panel/api-keys", { name: "loja <i>online</i>", scope: "WRITE" });
    const key = keyOf(created.html);
    const customer = await makeCustomer(t);
    const edited = await post(`/v1/customers/${customer.externalId}`, key, { name: "Maria Souza", phone: "11 98888-7777" }, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(edited.status).toBe(200);

    const all = await b.get("/panel/audit");
    expect(all.status).toBe(200);
    expect(all.html).toContain("updateCustomer");
    expect(all.html).toContain(customer.externalId); // the customer edit names the customer by its external id
    expect(all.html).toContain("loja &lt;i>online&lt;/i> (bk_test_");
    expect(all.html).toContain("createApiKey");
    expect(all.html).toContain(`${dev.email} (membro)`);
    expect(all.html).toContain("127.0.0.1");
    expect(all.html).not.toContain("203.0.113.9"); // a client's own header is not believed

    const { entries } = await entriesOf(t.readKey);
    const v1 = entries.find((e) => e.action === "updateCustomer")!;
    expect(v1).toMatchObject({ actorKind: "API_KEY", recordId: customer.externalId });
    expect(v1.address).toMatch(/127\.0\.0\.1$/);
    expect(Math.abs(Date.parse(v1.at) - Date.now())).toBeLessThan(60_000);
    const panel = entries.find((e) => e.action === "createApiKey")!;
    expect(panel).toMatchObject({ actorKind: "MEMBER", actor: dev.email });
    expect(panel.recordId).toMatch(/^key_/);
    expect(panel.address).toMatch(/127\.0\.0\.1$/);

    const byActor = await b.get(`/panel/audit?actor=${encodeURIComponent("LOJA")}`);
    expect(byActor.html).toContain("updateCustomer");
    expect(byActor.html).not.toContain("<strong>createApiKey</strong>");
    const byAction = await b.get("/panel/audit?action=createApiKey");
    expect(byAction.html).toContain("<strong>createApiKey</strong>");
    expect(byAction.html).not.toContain("<strong>updateCustomer</strong>");
    const today = ymd(new Date());
    expect((await b.get(`/panel/audit?from=${today}&to=${today}`)).html).toContain("<strong>updateCustomer</strong>");
    const future = await b.get(`/panel/audit?from=${ymd(new Date(Date.now() + 2 * DAY))}`);
    expect(future.html).toContain("Nenhum registro com esses filtros.");
    const past = await b.get(`/panel/audit?to=${ymd(new Date(Date.now() - 2 * DAY))}`);
    expect(past.html).toContain("Nenhum registro com esses filtros.");
    const backwards = await b.get(`/panel/audit?from=${today}&to=${ymd(new Date(Date.now() - 2 * DAY))}`);
    expect(backwards.status).toBe(422);
  });

  it("keyset pages go from newest to oldest without repeating; another tenant's entries never show", async () => {
    const a = await newTenant();
    const other = await newTenant();
    for (const n of ["um", "dois", "três"]) await op(`mutation($t: ID!, $n: String!) { createApiKey(tenantId: $t, scope: READ, name: $n) { id } }`, { t: a.tenantId, n });
    await op(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: READ, name: "segredo-de-b") { id } }`, { t: other.tenantId });

    // The operator's writes land in the tenant they touched, even when only the key's id is given.
    const { apiKeys } = await op(`query($t: ID) { apiKeys(tenantId: $t) { id } }`, { t: a.tenantId });
    const { rollApiKey } = await op(`mutation($id: ID!) { rollApiKey(id: $id, overlapHours: 1) { id } }`, { id: apiKeys[0].id });
    expect((await entriesOf(a.readKey, `(action: "rollApiKey")`)).entries).toMatchObject([{ actorKind: "OPERATOR", actor: "operador", recordId: rollApiKey.id }]);

    const first = await entriesOf(a.readKey, "(first: 2)");
    expect(first.entries).toHaveLength(2);
    expect(first.entries.map((e) => e.actor)).toEqual(["operador", "operador"]);
    const second = await entriesOf(a.readKey, `(first: 2, after: "${first.nextCursor}")`);
    const seen = [...first.entries, ...second.entries];
    expect(new Set(seen.map((e) => e.recordId)).size).toBe(seen.length);
    expect(Date.parse(first.entries[0]!.at)).toBeGreaterThanOrEqual(Date.parse(second.entries[0]!.at));

    const mine = await entriesOf(a.readKey, "(first: 500)");
    const theirs = await entriesOf(other.readKey, "(first: 500)");
    const mineIds = new Set(mine.entries.map((e) => e.recordId));
    expect(theirs.entries.some((e) => mineIds.has(e.recordId))).toBe(false);
    const foreign = await gql(`query($t: ID) { auditEntries(tenantId: $t) { entries { action } } }`, { t: other.tenantId }, a.readKey);
    expect(foreign.errors?.[0]?.extensions?.code).toBe("not_found");

    const owner = await newMember(a.tenantId, "VIEWER");
    const b = await signIn(owner.email, owner.password);
    const page = await b.get("/panel/audit?action=createApiKey");
    expect(page.status).toBe(200);
    const ids = (await op(`query($t: ID) { apiKeys(tenantId: $t) { id } }`, { t: other.tenantId })).apiKeys.map((k: { id: string }) => k.id);
    for (const id of ids) expect(page.html).not.toContain(id);
    expect(page.html).not.toContain("segredo-de-b");
  });
});
