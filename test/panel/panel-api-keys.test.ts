// API keys in the panel: a developer creates a key (shown once), calls /v1 with it, revokes it after a
// confirmation page (then 401); rolling keeps the old key for the chosen overlap only; viewers and
// other tenants are refused; the operator's createApiKey/revokeApiKey keep working.
import { beforeAll, describe, expect, it } from "vitest";
import { get, gql, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { testService } from "../helpers/service.ts";
import { csrfOf, newMember, signIn, type PanelBrowser } from "../helpers/panel.ts";

const keyOf = (html: string) => {
  const m = /id="new-key"[^>]*value="(bk_test_[0-9A-Za-z]{32})"|value="(bk_test_[0-9A-Za-z]{32})"[^>]*id="new-key"/.exec(html);
  if (!m) throw new Error(`no key on the page: ${html.slice(0, 400)}`);
  return (m[1] ?? m[2])!;
};
/** The key's id, from its revoke link on the list. */
const idOf = (html: string, name: string) => {
  const re = new RegExp(`href="/panel/api-keys/(key_[0-9A-Z]+)/revoke">Revogar ${name}<`);
  const m = re.exec(html);
  if (!m) throw new Error(`no revoke link for ${name}`);
  return m[1]!;
};

async function createKey(b: PanelBrowser, name: string, scope: "READ" | "WRITE" = "READ") {
  const page = await b.submit("/panel/api-keys", "/panel/api-keys", { name, scope });
  expect(page.status).toBe(200);
  expect(page.html).toContain("Chave criada");
  return keyOf(page.html);
}

describe("panel API keys", () => {
  // The service starts (and the embedded database migrates) outside the first test's time budget.
  beforeAll(() => testService());

  it("an invited developer creates a key, calls /v1 with it, sees its last use, revokes it after confirming: then 401", async () => {
    const t = await newTenant();
    const dev = await newMember(t.tenantId, "DEVELOPER");
    const b = await signIn(dev.email, dev.password);
    const hostile = `servidor <script>alert(1)</script>`;
    const created = await b.submit("/panel/api-keys", "/panel/api-keys", { name: hostile, scope: "READ" });
    expect(created.html).not.toContain("<script>alert(1)");
    expect(created.html).toContain("servidor &lt;script>");
    expect(created.html).toContain('data-copy="new-key"');
    expect(created.html).toContain('src="/panel/assets/copy.js"');
    const key = keyOf(created.html);
    expect((await b.get("/panel/assets/copy.js")).html).toContain("navigator.clipboard");

    expect((await get("/v1/events", key)).status).toBe(200);
    await (await testService()).runtime.keyUsage.flush();

    const list = await b.get("/panel/api-keys");
    expect(list.html).not.toContain(key); // shown once
    expect(list.html).toContain(key.slice(0, 12));
    expect(list.html).toContain(`Criada por ${dev.email}`);
    expect(list.html).toContain("último uso");
    expect(list.html).toContain("Leitura");

    const id = idOf(list.html, "servidor &lt;script>alert\\(1\\)&lt;/script>");
    const confirm = await b.get(`/panel/api-keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain("Revogar servidor &lt;script>");
    expect((await get("/v1/events", key)).status).toBe(200); // the confirmation page changes nothing
    const revoked = await b.request("POST", `/panel/api-keys/${id}/revoke`, { csrf: csrfOf(confirm.html) });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe("/panel/api-keys?done=revoked");
    expect((await b.get(revoked.location!)).html).toContain("revogada em");
    expect((await get("/v1/events", key)).status).toBe(401);
  });

  it("roll: the old key works during the overlap and answers 401 after it (wall clock moved); overlap 0 stops it at once", async () => {
    const t = await newTenant();
    const dev = await newMember(t.tenantId, "ADMIN");
    const b = await signIn(dev.email, dev.password);
    const old = await createKey(b, "integração", "WRITE");
    const id = idOf((await b.get("/panel/api-keys")).html, "integração");
    const form = await b.get(`/panel/api-keys/${id}/roll`);
    expect(form.html).toContain("Sobreposição");
    const rolled = await b.request("POST", `/panel/api-keys/${id}/roll`, { csrf: csrfOf(form.html), overlapHours: "24" });
    expect(rolled.status).toBe(200);
    expect(rolled.html).toContain("Chave substituída");
    expect(rolled.html).toContain("A chave antiga continua aceita até");
    const fresh = keyOf(rolled.html);
    expect(fresh).not.toBe(old);
    expect((await get("/v1/events", old)).status).toBe(200);
    expect((await get("/v1/events", fresh)).status).toBe(200);
    const list = await b.get("/panel/api-keys");
    expect(list.html).toContain("substituída; aceita até");

    // Rolling the rolled key again is refused (one successor).
    const again = await b.request("POST", `/panel/api-keys/${id}/roll`, { csrf: csrfOf(list.html), overlapHours: "1" });
    expect(again.status).toBe(409);
    expect(again.html).toContain("esta chave já foi substituída");
    // More than 7 days of overlap is refused by the core.
    const freshId = idOf(list.html, "integração");
    const tooLong = await b.request("POST", `/panel/api-keys/${freshId}/roll`, { csrf: csrfOf(list.html), overlapHours: "169" });
    expect(tooLong.status).toBe(422);

    const runtime = (await testService()).runtime;
    const wall = runtime.wallClock;
    runtime.wallClock = { now: () => new Date(Date.now() + 25 * 3_600_000) };
    try {
      expect((await get("/v1/events", old)).status).toBe(401);
      expect((await get("/v1/events", fresh)).status).toBe(200);
    } finally {
      runtime.wallClock = wall;
    }

    const now = await b.request("POST", `/panel/api-keys/${freshId}/roll`, { csrf: csrfOf(list.html), overlapHours: "0" });
    expect(now.status).toBe(200);
    expect((await get("/v1/events", fresh)).status).toBe(401);
    expect((await get("/v1/events", keyOf(now.html))).status).toBe(200);
  });

  it("a viewer sees the keys but no forms, and posting the create form is refused with a clear page", async () => {
    const t = await newTenant();
    const viewer = await newMember(t.tenantId, "VIEWER");
    const v = await signIn(viewer.email, viewer.password);
    const page = await v.get("/panel/api-keys");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Criada por operador"); // newTenant's keys
    expect(page.html).not.toContain('action="/panel/api-keys"');
    const forged = await v.request("POST", "/panel/api-keys", { csrf: csrfOf(page.html), name: "x", scope: "WRITE" });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain("o seu papel na equipe não permite esta ação");
    expect(forged.html).not.toContain("Chave criada");
    const { apiKeys } = await op(`query($t: ID) { apiKeys(tenantId: $t) { id } }`, { t: t.tenantId });
    const revoke = await v.request("POST", `/panel/api-keys/${apiKeys[0].id}/revoke`, { csrf: csrfOf(page.html) });
    expect(revoke.status).toBe(403);
    expect((await get("/v1/events", t.readKey)).status).toBe(200);
  });

  it("another tenant's key id answers like an unknown one, and the key keeps working", async () => {
    const a = await newTenant();
    const other = await newTenant();
    const dev = await newMember(a.tenantId, "OWNER");
    const b = await signIn(dev.email, dev.password);
    const { apiKeys } = await op(`query($t: ID) { apiKeys(tenantId: $t) { id } }`, { t: other.tenantId });
    const foreign = apiKeys[0].id as string;
    const page = await b.get("/panel/api-keys");
    for (const path of [`/panel/api-keys/${foreign}/revoke`, `/panel/api-keys/${foreign}/roll`, "/panel/api-keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV/revoke"]) {
      const shown = await b.get(path);
      expect(shown.status).toBe(404);
      expect(shown.html).toContain("Chave não encontrada");
    }
    expect((await b.request("POST", `/panel/api-keys/${foreign}/revoke`, { csrf: csrfOf(page.html) })).status).toBe(404);
    expect((await b.request("POST", `/panel/api-keys/${foreign}/roll`, { csrf: csrfOf(page.html), overlapHours: "0" })).status).toBe(404);
    expect((await get("/v1/events", other.readKey)).status).toBe(200);
    expect((await get("/v1/events", other.writeKey)).status).toBe(200);
  });

  it("the operator's createApiKey (name optional) and revokeApiKey keep working; keys cannot manage keys", async () => {
    const t = await newTenant();
    const { createApiKey } = await op(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: READ, name: "backoffice") { id key name } }`, { t: t.tenantId });
    expect(createApiKey.name).toBe("backoffice");
    expect((await get("/v1/events", createApiKey.key)).status).toBe(200);
    const noTenant = await gql(`mutation { createApiKey(scope: READ) { id } }`);
    expect(noTenant.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    const byKey = await gql(`mutation { createApiKey(scope: WRITE, name: "x") { id } }`, {}, t.writeKey);
    expect(byKey.errors?.[0]?.extensions?.code).toBe("operator_only");
    await op(`mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`, { id: createApiKey.id });
    expect((await get("/v1/events", createApiKey.key)).status).toBe(401);
  });
});
