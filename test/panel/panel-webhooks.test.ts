// The panel's webhooks over HTTP: a developer adds an endpoint, reads its secret and sends a test event
// that arrives signed with it (to that endpoint only, and not in /v1/events); disabling holds the
// deliveries and queues the alarm e-mail; the delivery log shows every attempt; resend one and resend
// the failed ones since a date; a viewer is refused; another tenant's ids are the 404 page; hostile
// descriptions are escaped.
import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import { advanceClock } from "../helpers/billing.ts";
import { get, op } from "../helpers/http.ts";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { csrfOf, newMember, signIn, type PanelBrowser } from "../helpers/panel.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { addEndpoint, deliveries, receiversPerTest, type Received } from "../helpers/webhook-receiver.ts";

const receiver = receiversPerTest();
const T0 = "2027-05-10T12:00:00.000Z";

/** The receiver's check, written here as a vendor would: HMAC-SHA256 of `ts.raw_body`, constant time. */
function verified(r: Received, secret: string): boolean {
  const parts = String(r.headers["x-billing-signature"]).split(",").map((p) => p.split("="));
  const ts = Number(parts.find(([k]) => k === "ts")?.[1]);
  if (Math.abs(Date.now() / 1000 - ts) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${ts}.${r.raw}`).digest();
  return parts.some(([k, v]) => k === "v1" && /^[0-9a-f]{64}$/.test(v ?? "") && timingSafeEqual(Buffer.from(v!, "hex"), expected));
}

const unescape = (html: string) => html.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&amp;/g, "&");
const secretOn = (html: string) => /<textarea id="secret"[^>]*>(whsec_[^<]+)<\/textarea>/.exec(html)?.[1] ?? null;

async function developer(t: TestTenant, role = "DEVELOPER"): Promise<PanelBrowser> {
  const m = await newMember(t.tenantId, role);
  return signIn(m.email, m.password);
}

/** Adds an endpoint through the panel's form; returns its page path. */
async function addInPanel(b: PanelBrowser, form: [string, string][]): Promise<string> {
  const page = await b.get("/panel/webhooks");
  const answer = await b.request("POST", "/panel/webhooks", [["csrf", csrfOf(page.html)], ...form]);
  expect(answer.status, answer.html.slice(0, 500)).toBe(303);
  const path = answer.location!.replace(/\?.*$/, "");
  expect(path).toMatch(/^\/panel\/webhooks\/we_[0-9A-Z]{26}$/);
  return path;
}

const post = (b: PanelBrowser, path: string, action: string, form: Record<string, string> = {}) => b.submit(path, `${path}/${action}`, form);

describe("panel webhooks", () => {
  it("a developer adds an endpoint, reads the secret and sends a test event that arrives signed, to that endpoint only", { timeout: 60_000 }, async () => {
    const t = await newTenant();
    const mine = await receiver();
    const other = await receiver();
    await addEndpoint(t, other.url); // another endpoint of the tenant, subscribed to everything
    const b = await developer(t);

    const path = await addInPanel(b, [["url", mine.url], ["description", "Receptor local"], ["scope", "chosen"], ["events", "invoice.paid"], ["events", "order.paid"], ["enabled", "1"]]);
    const page = await b.get(`${path}?done=added`);
    expect(page.html).toContain("Endpoint adicionado");
    expect(page.html).toContain("invoice.paid, order.paid");
    expect(page.html).toContain("Receptor local");
    expect(secretOn(page.html)).toBeNull(); // shown on demand only

    const shown = await post(b, path, "secret");
    expect(shown.status).toBe(200);
    const secret = secretOn(shown.html)!;
    expect(secret).toMatch(/^whsec_/);

    const sent = await post(b, path, "test");
    expect(sent.status).toBe(303);
    await mine.waitFor((rs) => rs.length === 1);
    const got = mine.requests[0]!;
    expect(got.body.type).toBe("webhook.test");
    expect(createOpenApiValidator().validateWebhook("webhook.test", got.body).errors).toEqual([]);
    expect(verified(got, secret)).toBe(true);
    expect(verified(got, "whsec_" + Buffer.alloc(32).toString("base64"))).toBe(false);

    // The log shows it delivered, with the body exactly as it arrived.
    await expect.poll(async () => (await b.get(path)).html).toContain("Entregue");
    const log = await b.get(path);
    expect(log.html).toContain("webhook.test");
    expect(log.html).toContain(got.body.id);
    expect(log.html).toContain("HTTP 200");
    expect(unescape(/<pre class="payload"[^>]*>([^<]*)<\/pre>/.exec(log.html)![1]!)).toBe(got.raw);

    // Nobody else got it, and it is no billing event.
    expect(other.requests.filter((r) => r.body?.type === "webhook.test")).toEqual([]);
    const events = await get("/v1/events?limit=100", t.readKey);
    expect(events.status).toBe(200);
    expect(events.body.results.map((e: { id: string }) => e.id)).not.toContain(got.body.id);

    // The secret rolls with overlap: both sign for 24 h.
    const rolled = await post(b, path, "roll");
    const next = secretOn(rolled.html)!;
    expect(next).not.toBe(secret);
    expect(rolled.html).toContain("continua assinando");
    await post(b, path, "test");
    await mine.waitFor((rs) => rs.length === 2);
    expect(verified(mine.requests[1]!, next)).toBe(true);
    expect(verified(mine.requests[1]!, secret)).toBe(true);
  });

  it("edits an endpoint, refuses a private address with the typed values kept, and deletes it with its history kept", { timeout: 60_000 }, async () => {
    const t = await newTenant({ mode: "LIVE" });
    const b = await developer(t, "ADMIN");
    const refused = await b.submit("/panel/webhooks", "/panel/webhooks", { url: "http://169.254.169.254/latest", description: "metadados", scope: "all" });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("url must not target a private or loopback address");
    expect(refused.html).toContain("metadados");
    const path = await addInPanel(b, [["url", "https://hooks.example.com/billing"], ["scope", "all"], ["enabled", "1"]]);
    const edit = await post(b, path, "edit", { url: "https://hooks.example.com/v2", description: "novo", scope: "all" });
    expect(edit.status).toBe(303);
    const page = await b.get(path);
    expect(page.html).toContain("https://hooks.example.com/v2");
    expect(page.html).toContain("Todos os eventos");
    expect((await post(b, path, "test")).status).toBe(303);
    expect((await b.get(`${path}/delete`)).html).toContain("Excluir endpoint?");
    expect((await post(b, path, "delete")).html).toContain("Endpoint excluído");
    expect((await b.get(path)).status).toBe(404);
    expect((await b.get("/panel/webhooks")).html).not.toContain("hooks.example.com");
    // The history stays whole: the test event's delivery still names its (deleted) endpoint.
    const log = await deliveries(t);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event: { type: "webhook.test" }, endpoint: { id: path.split("/").pop() } });
  });

  it("disabling holds the deliveries and queues the alarm e-mail in the same step; enabling sends them", { timeout: 60_000 }, async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { updateTenantContacts(tenantId: $t, emails: ["ops@loja.example"]) { id } }`, { t: t.tenantId });
    await advanceClock(t, T0);
    const rcv = await receiver();
    rcv.answer = () => ({ status: 503 });
    const b = await developer(t);
    const path = await addInPanel(b, [["url", rcv.url], ["scope", "all"], ["enabled", "1"]]);
    await post(b, path, "test");
    await rcv.waitFor((rs) => rs.length === 1);
    await expect.poll(async () => (await deliveries(t))[0]?.attemptCount).toBe(1);

    const off = await post(b, path, "disable");
    expect(off.status).toBe(303);
    expect((await b.get(off.location!)).html).toContain("Endpoint desativado");
    const alarms = async () =>
      (await op(`query($t: ID!) { emailMessages(tenantId: $t) { kind to subject body } }`, { t: t.tenantId })).emailMessages.filter(
        (m: { kind: string }) => m.kind === "webhook_endpoint_failing",
      );
    const mails = await alarms();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: "webhook_endpoint_failing", to: "ops@loja.example" });
    expect(mails[0].body).toContain("foi desativado");
    expect(mails[0].body).toContain(rcv.url);
    // A second press changes nothing and sends nothing.
    await post(b, path, "disable");
    expect(await alarms()).toHaveLength(1);

    // Its retry falls due on the clock but is held; a test event is refused while disabled.
    rcv.answer = () => ({ status: 200 });
    await advanceClock(t, "2027-05-11T12:00:00.000Z");
    await new Promise((r) => setTimeout(r, 300));
    expect(rcv.requests).toHaveLength(1);
    expect((await deliveries(t))[0]).toMatchObject({ status: "PENDING", attemptCount: 1 });
    const refused = await post(b, path, "test");
    expect(refused.status).toBe(409);
    expect(refused.html).toContain("the endpoint is disabled");

    const on = await post(b, path, "enable");
    expect(on.status).toBe(303);
    await rcv.waitFor((rs) => rs.length === 2);
    await expect.poll(async () => (await deliveries(t))[0]?.status).toBe("DELIVERED");
  });

  it("the delivery log shows each attempt; resend one; resend every failed delivery since a date", { timeout: 60_000 }, async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const rcv = await receiver();
    rcv.answer = () => ({ status: 500 });
    const b = await developer(t);
    const path = await addInPanel(b, [["url", rcv.url], ["scope", "all"], ["enabled", "1"]]);
    await post(b, path, "test");
    await post(b, path, "test");
    await rcv.waitFor((rs) => rs.length === 2);
    await expect.poll(async () => (await deliveries(t)).map((d) => d.attemptCount)).toEqual([1, 1]);
    await advanceClock(t, "2027-05-13T12:00:00.000Z"); // every retry: 7 attempts each, exhausted
    const exhausted = await deliveries(t);
    expect(exhausted.map((d) => [d.status, d.attemptCount])).toEqual([
      ["EXHAUSTED", 7],
      ["EXHAUSTED", 7],
    ]);
    const log = await b.get(path);
    expect(log.html.match(/Tentativas esgotadas/g)).toHaveLength(2);
    expect(log.html).toContain("7 tentativa(s) · HTTP 500");
    expect(log.html.match(/<ol class="attempts">/g)).toHaveLength(2);
    expect(log.html.match(/· HTTP 500 · \d+ ms<\/li>/g)).toHaveLength(14);

    rcv.answer = () => ({ status: 200 });
    const [first, second] = exhausted;
    const one = await b.submit(path, `${path}/deliveries/${first.id}/resend`, {});
    expect(one.status).toBe(303);
    await rcv.waitFor((rs) => rs.length === 15);
    await expect.poll(async () => (await deliveries(t)).map((d) => d.status)).toEqual(["DELIVERED", "EXHAUSTED"]);
    expect((await deliveries(t))[0].attemptCount).toBe(8);

    // Since the next day: nothing failed then. Since the day of the events: the other one.
    const none = await post(b, path, "resend-failed", { since: "2027-05-11" });
    expect(none.html).toContain("Nenhuma entrega com falha desde essa data.");
    const bad = await post(b, path, "resend-failed", { since: "ontem" });
    expect(bad.status).toBe(422);
    const again = await post(b, path, "resend-failed", { since: "2027-05-10" });
    expect(again.html).toContain("1 entrega(s) com falha reenviada(s).");
    await rcv.waitFor((rs) => rs.length === 16);
    expect(rcv.requests[15]!.body.id).toBe(second.event.id);
    await expect.poll(async () => (await deliveries(t)).map((d) => d.status)).toEqual(["DELIVERED", "DELIVERED"]);
  });

  it("a viewer reads the section but every form they post is refused", { timeout: 60_000 }, async () => {
    const t = await newTenant();
    const { id } = await addEndpoint(t, "http://127.0.0.1:9/hooks");
    const v = await developer(t, "VIEWER");
    const list = await v.get("/panel/webhooks");
    expect(list.status).toBe(200);
    expect(list.html).toContain("http://127.0.0.1:9/hooks");
    expect(list.html).not.toContain('action="/panel/webhooks"');
    const page = await v.get(`/panel/webhooks/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("Mostrar segredo");
    const forged = await v.submit("/panel/webhooks", "/panel/webhooks", { url: "http://127.0.0.1:9/x", scope: "all" });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain("o seu papel na equipe não permite esta ação");
    for (const action of ["secret", "roll", "test", "disable", "delete", "edit"]) {
      const answer = await v.submit(`/panel/webhooks/${id}`, `/panel/webhooks/${id}/${action}`, { url: "http://127.0.0.1:9/y", scope: "all" });
      expect(answer.status, action).toBe(403);
      expect(answer.html).not.toContain("whsec_");
    }
    expect((await op(`query($t: ID!) { webhookEndpoints(tenantId: $t) { url active } }`, { t: t.tenantId })).webhookEndpoints).toEqual([{ url: "http://127.0.0.1:9/hooks", active: true }]);
  });

  it("another tenant's endpoint and delivery ids answer like unknown ones: the 404 page", { timeout: 60_000 }, async () => {
    const a = await newTenant();
    const other = await newTenant();
    const rcv = await receiver();
    const { id } = await addEndpoint(other, rcv.url);
    const ob = await developer(other);
    const otherPath = `/panel/webhooks/${id}`;
    await post(ob, otherPath, "test");
    await rcv.waitFor((rs) => rs.length === 1);
    const [delivery] = await deliveries(other);

    const b = await developer(a, "OWNER");
    const unknown = "/panel/webhooks/we_00000000000000000000000000";
    for (const path of [otherPath, unknown, "/panel/webhooks/nao-e-um-id", `${otherPath}/delete`]) {
      const page = await b.get(path);
      expect(page.status, path).toBe(404);
      expect(page.html).toContain("Endpoint não encontrado");
    }
    for (const action of ["secret", "roll", "test", "disable", "delete", "edit", "resend-failed"]) {
      const answer = await b.submit("/panel/webhooks", `${otherPath}/${action}`, { url: "http://127.0.0.1:9/z", scope: "all", since: "2020-01-01" });
      expect(answer.status, action).toBe(404);
      expect(answer.html).not.toContain("whsec_");
    }
    const resend = await b.submit("/panel/webhooks", `${otherPath}/deliveries/${delivery.id}/resend`, {});
    expect(resend.status).toBe(404);
    expect((await deliveries(other))[0].attemptCount).toBe(1);
    expect((await op(`query($t: ID!) { webhookEndpoints(tenantId: $t) { url active } }`, { t: other.tenantId })).webhookEndpoints).toEqual([{ url: rcv.url, active: true }]);
  });

  it("a hostile description and URL are shown as text, never as markup", { timeout: 60_000 }, async () => {
    const t = await newTenant();
    const b = await developer(t);
    const hostile = `<script>alert("d")</script><img src=x onerror=alert(1)>`;
    const path = await addInPanel(b, [["url", `http://127.0.0.1:9/h?q="><script>alert(2)</script>'`], ["description", hostile], ["scope", "all"], ["enabled", "1"]]);
    for (const page of [await b.get("/panel/webhooks"), await b.get(path), await b.get(`${path}/delete`)]) {
      expect(page.html).not.toContain("<script>alert");
      expect(page.html).not.toContain("<img src=x");
    }
    const detail = await b.get(path);
    expect(detail.html).toContain("&lt;script");
    expect(unescape(detail.html)).toContain(hostile);
    // A refused form keeps the hostile value, escaped too.
    const refused = await b.submit("/panel/webhooks", "/panel/webhooks", { url: "ftp://x", description: hostile, scope: "all" });
    expect(refused.status).toBe(422);
    expect(refused.html).not.toContain("<script>alert");
  });

  it("in read-only mode the secret is still shown (a read, recorded as a mutation) while changes are refused", async () => {
    const t = await newTenant();
    const mine = await receiver();
    const b = await developer(t);
    const path = await addInPanel(b, [["url", mine.url], ["description", "Somente leitura"], ["scope", "all"], ["enabled", "1"]]);
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { id } }`, { t: t.tenantId });
    const shown = await post(b, path, "secret");
    expect(shown.status).toBe(200);
    expect(secretOn(shown.html)).toMatch(/^whsec_/);
    const test = await post(b, path, "test");
    expect(test.status).toBe(403);
  });
});
