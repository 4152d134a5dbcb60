// The panel's gateways: a developer connects Stripe and Pagar.me accounts against the local fakes, a
// refused credential is told clearly, the default switches, the notice URL and its events are shown. No
// secret ever comes back: not in a page, not in the panel's GraphQL answers. A viewer's forged posts are
// refused, and another tenant's account id answers like an unknown one.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOperation } from "../../contract/trusted-operations.ts";
import { createCoreClient } from "../../rest-facade/core-client.ts";
import { inProcessFetch } from "../../schema/in-process-entry.ts";
import { startFakePagarme, type FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { op } from "../helpers/http.ts";
import { newMember, PanelBrowser, signIn } from "../helpers/panel.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

/** Secrets made by this run: unique, so finding one anywhere is a leak. */
const alnum = (n: number) => randomBytes(n).toString("base64url").replace(/[-_]/g, "x");
const SECRET_KEY = `sk_test_${alnum(24)}`;
const PUBLISHABLE_KEY = `pk_test_${alnum(24)}`;
const WEBHOOK_SECRET = `whsec_${alnum(24)}`;
const PAGARME_SECRET = `sk_test_${randomBytes(16).toString("hex")}`;
const PAGARME_PUBLIC = `pk_test_${randomBytes(16).toString("hex")}`;

let stripe: FakeStripe;
let pagarme: FakePagarme;
beforeAll(async () => {
  await testService();
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  pagarme = await startFakePagarme({ secretKey: PAGARME_SECRET, publicKey: PAGARME_PUBLIC });
});
afterAll(async () => {
  await stripe?.close();
  await pagarme?.close();
});

function expectNoSecret(where: string, text: string, secrets: string[]) {
  for (const s of secrets) expect({ where, leaked: text.includes(s) }).toEqual({ where, leaked: false });
}

/** The panel's persisted operation, run as the member behind `b` (what the pages read). */
async function answerOf(b: PanelBrowser, name: string, variables: Record<string, unknown> = {}): Promise<string> {
  const { yoga, runtime } = await testService();
  const core = createCoreClient({ inProcess: inProcessFetch(yoga, runtime) });
  const data = await core.request(loadOperation(name), variables, { authorization: `Bearer ${b.jar.get("panel_session")}` }, { panel: { address: "127.0.0.9", userAgent: "test" } });
  return JSON.stringify(data);
}

const accountIdOf = (location: string | null) => /^\/panel\/gateways\/(gwa_[A-Za-z0-9]+)\?connected=1$/.exec(location ?? "")?.[1];

async function connectStripe(b: PanelBrowser, name: string, creds: Record<string, string> = { cred_secretKey: SECRET_KEY, cred_publishableKey: PUBLISHABLE_KEY }) {
  return b.submit("/panel/gateways/connect/stripe", "/panel/gateways/connect/stripe", { name, ...creds, apiBaseUrl: stripe.url });
}

async function developer(tenantId: string) {
  const m = await newMember(tenantId, "DEVELOPER");
  return signIn(m.email, m.password);
}

describe("panel gateways", () => {
  it("a developer connects Stripe against the fake, adds the signing secret later, and sees the notice URL and its events; no secret comes back", async () => {
    const t = await newTenant();
    const b = await developer(t.tenantId);

    const list = await b.get("/panel/gateways");
    expect(list.status).toBe(200);
    // A sandbox tenant sees its sandbox account (made by its first offer), the default.
    expect(list.html).toMatch(/>sandbox<\/a> · Sandbox<span class="badge"> padrão<\/span>/);
    expect(list.html).toContain('href="/panel/gateways/connect/stripe"');

    const form = await b.get("/panel/gateways/connect/stripe");
    expect(form.html).toContain('name="cred_secretKey"');
    expect(form.html).toContain('type="password"');

    const done = await connectStripe(b, "stripe-br");
    expect(done.status).toBe(303);
    const id = accountIdOf(done.location)!;
    expect(id).toBeTruthy();
    const page = await b.get(done.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Conta conectada");
    expect(page.html).toContain(`sk_test_...${SECRET_KEY.slice(-4)}`);
    expect(page.html).toContain(`http://localhost/gateways/${id}/webhooks`);
    for (const e of ["payment_intent.succeeded", "payment_intent.payment_failed", "refund.created", "refund.updated", "refund.failed", "charge.dispute.created"]) expect(page.html).toContain(e);
    expect(page.html).toContain("conta padrão do Stripe");

    const empty = await b.submit(`/panel/gateways/${id}`, `/panel/gateways/${id}/credentials`, { cred_secretKey: " " });
    expect(empty.status).toBe(422);
    expect(empty.html).toContain("Preencha ao menos um campo");
    // Stripe's signing secret exists only once the endpoint is registered: added alone, the key stays.
    const saved = await b.submit(`/panel/gateways/${id}`, `/panel/gateways/${id}/credentials`, { cred_webhookSecret: WEBHOOK_SECRET });
    expect(saved.status).toBe(303);
    const after = await b.get(saved.location!);
    expect(after.html).toContain("Credenciais trocadas e verificadas");
    expect(after.html).toContain(`whsec_...${WEBHOOK_SECRET.slice(-4)}`);
    expect(after.html).toContain(`sk_test_...${SECRET_KEY.slice(-4)}`);

    // A rotated key the provider refuses is told on the account's page; the stored one stays.
    const rotated = `sk_test_${alnum(24)}`;
    const refused = await b.submit(`/panel/gateways/${id}`, `/panel/gateways/${id}/credentials`, { cred_secretKey: rotated });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("O provedor recusou as credenciais: stripe refused the credentials: Stripe does not recognize the key");
    expect(refused.html).toContain(`sk_test_...${SECRET_KEY.slice(-4)}`);
    expect(refused.html).not.toContain(rotated);

    // The account charges: the operator's view agrees, and the stored set still opens with the key.
    const { gatewayAccounts } = await op(`query($t: ID!) { gatewayAccounts(tenantId: $t) { id name provider isDefault credentialHints } }`, { t: t.tenantId });
    expect(gatewayAccounts.find((a: { id: string }) => a.id === id)).toMatchObject({ name: "stripe-br", provider: "STRIPE", isDefault: true });
    expect(Object.keys(gatewayAccounts.find((a: { id: string }) => a.id === id).credentialHints).sort()).toEqual(["publishableKey", "secretKey", "webhookSecret"]);

    const secrets = [SECRET_KEY, PUBLISHABLE_KEY, WEBHOOK_SECRET];
    for (const [where, html] of [["list", (await b.get("/panel/gateways")).html], ["account", after.html], ["connected", page.html]] as const) expectNoSecret(where, html, secrets);
    expectNoSecret("panel-gateways answer", await answerOf(b, "panel-gateways"), secrets);
    expectNoSecret("panel-gateway answer", await answerOf(b, "panel-gateway", { id }), secrets);
  });

  it("a refused credential shows the provider's reason, keeps the name typed, and never echoes the key", async () => {
    const t = await newTenant();
    const b = await developer(t.tenantId);
    const wrong = `sk_test_${alnum(24)}`;
    const refused = await connectStripe(b, "tentativa", { cred_secretKey: wrong });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("O provedor recusou as credenciais");
    expect(refused.html).toContain("Stripe does not recognize the key");
    expect(refused.html).toContain('value="tentativa"');
    expect(refused.html).not.toContain(wrong);
    const publishable = await connectStripe(b, "tentativa", { cred_secretKey: PUBLISHABLE_KEY });
    expect(publishable.status).toBe(422);
    expect(publishable.html).toContain("secretKey is a publishable key");
    expect(publishable.html).not.toContain(PUBLISHABLE_KEY);
    // Nothing was stored.
    const { gatewayAccounts } = await op(`query($t: ID!) { gatewayAccounts(tenantId: $t) { name } }`, { t: t.tenantId });
    expect(gatewayAccounts.map((a: { name: string }) => a.name)).toEqual(["sandbox"]);
    // A name taken points at the name field.
    expect((await connectStripe(b, "sandbox")).html).toContain("Já existe uma conta com este nome.");
  });

  it("the default switches to the second Stripe account", async () => {
    const t = await newTenant();
    const b = await developer(t.tenantId);
    const first = accountIdOf((await connectStripe(b, "stripe-a")).location)!;
    const second = accountIdOf((await connectStripe(b, "stripe-b")).location)!;
    expect((await b.get(`/panel/gateways/${second}`)).html).toContain("não é a padrão");
    const switched = await b.submit(`/panel/gateways/${second}`, `/panel/gateways/${second}/default`, {});
    expect(switched.status).toBe(303);
    const page = await b.get(switched.location!);
    expect(page.html).toContain("Esta é agora a conta padrão do provedor.");
    expect(page.html).toContain("conta padrão do Stripe");
    expect((await b.get(`/panel/gateways/${first}`)).html).toContain("não é a padrão");
    const { gatewayAccounts } = await op(`query($t: ID!) { gatewayAccounts(tenantId: $t) { id isDefault } }`, { t: t.tenantId });
    expect(Object.fromEntries(gatewayAccounts.map((a: { id: string; isDefault: boolean }) => [a.id, a.isDefault]))).toMatchObject({ [first]: false, [second]: true });
  });

  it("Pagar.me: the notice URL with its token is shown to the developer, masked to a viewer", async () => {
    const t = await newTenant();
    const b = await developer(t.tenantId);
    const done = await b.submit("/panel/gateways/connect/pagarme", "/panel/gateways/connect/pagarme", {
      name: "pagarme",
      cred_secretKey: PAGARME_SECRET,
      cred_publicKey: PAGARME_PUBLIC,
      apiBaseUrl: pagarme.url,
    });
    expect(done.status).toBe(303);
    const id = accountIdOf(done.location)!;
    const { gatewayAccounts } = await op(`query($t: ID!) { gatewayAccounts(tenantId: $t) { id webhookUrl } }`, { t: t.tenantId });
    const url: string = gatewayAccounts.find((a: { id: string }) => a.id === id).webhookUrl;
    const token = new URL(url).searchParams.get("token")!;
    expect(token).toMatch(/^wht_/);
    const page = await b.get(`/panel/gateways/${id}`);
    expect(page.html).toContain(token);
    expect(page.html).toContain("charge.paid");
    expect(page.html).toContain("order.payment_failed");
    expectNoSecret("pagarme page", page.html, [PAGARME_SECRET, PAGARME_PUBLIC]);

    const viewer = await newMember(t.tenantId, "VIEWER");
    const v = await signIn(viewer.email, viewer.password);
    const seen = await v.get(`/panel/gateways/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.html).toContain(`/gateways/${id}/webhooks?token=wht_...`);
    expectNoSecret("viewer's page", seen.html, [token, PAGARME_SECRET, PAGARME_PUBLIC]);
    expectNoSecret("viewer's answer", await answerOf(v, "panel-gateway", { id }), [token, PAGARME_SECRET, PAGARME_PUBLIC]);
  });

  it("a viewer reads the gateways but every form they post is refused", async () => {
    const t = await newTenant();
    const b = await developer(t.tenantId);
    const id = accountIdOf((await connectStripe(b, "stripe")).location)!;
    const sandboxId = (await op(`query($t: ID!) { gatewayAccounts(tenantId: $t) { id name } }`, { t: t.tenantId })).gatewayAccounts.find((a: { name: string }) => a.name === "sandbox").id;
    for (const role of ["VIEWER", "SUPPORT"]) {
      const m = await newMember(t.tenantId, role);
      const v = await signIn(m.email, m.password);
      const list = await v.get("/panel/gateways");
      expect(list.status).toBe(200);
      expect(list.html).toContain(">stripe</a>");
      expect(list.html).not.toContain("/panel/gateways/connect/");
      expect((await v.get("/panel/gateways/connect/stripe")).status).toBe(403);
      const page = await v.get(`/panel/gateways/${sandboxId}`);
      expect(page.html).not.toContain(`action="/panel/gateways/${sandboxId}/default"`);
      for (const [formPage, action, form] of [
        ["/panel/gateways", "/panel/gateways/connect/stripe", { name: "x", cred_secretKey: SECRET_KEY, apiBaseUrl: stripe.url }],
        [`/panel/gateways/${id}`, `/panel/gateways/${id}/credentials`, { cred_secretKey: SECRET_KEY }],
        [`/panel/gateways/${id}`, `/panel/gateways/${sandboxId}/default`, {}],
      ] as const) {
        const refused = await v.submit(formPage, action, form);
        expect({ role, action, status: refused.status }).toEqual({ role, action, status: 403 });
        expect(refused.html).toContain("O seu papel na equipe não permite esta ação.");
      }
    }
    // Nothing changed.
    const { gatewayAccounts } = await op(`query($t: ID!) { gatewayAccounts(tenantId: $t) { name isDefault } }`, { t: t.tenantId });
    expect(gatewayAccounts).toEqual([
      { name: "sandbox", isDefault: true },
      { name: "stripe", isDefault: true },
    ]);
  });

  it("another tenant's account id answers exactly like an unknown one: a 404 page, on reads and on posts", async () => {
    const other = await newTenant();
    const theirs = accountIdOf((await connectStripe(await developer(other.tenantId), "theirs")).location)!;
    const t = await newTenant();
    const owner = await newMember(t.tenantId, "OWNER");
    const b = await signIn(owner.email, owner.password);
    const unknown = `gwa_${"0".repeat(theirs.length - 4)}`;
    const answers = [];
    for (const id of [theirs, unknown, "not-an-id"]) {
      const read = await b.get(`/panel/gateways/${id}`);
      const setDefault = await b.submit("/panel/gateways", `/panel/gateways/${id}/default`, {});
      const rekey = await b.submit("/panel/gateways", `/panel/gateways/${id}/credentials`, { cred_secretKey: SECRET_KEY });
      for (const a of [read, setDefault, rekey]) {
        expect(a.status).toBe(404);
        expect(a.html).not.toContain("theirs");
        answers.push(a.html);
      }
    }
    expect(new Set(answers).size).toBe(1);
    const { gatewayAccounts } = await op(`query($t: ID!) { gatewayAccounts(tenantId: $t) { id isDefault credentialHints } }`, { t: other.tenantId });
    expect(gatewayAccounts.find((a: { id: string }) => a.id === theirs).isDefault).toBe(true);
  });

  it("a hostile account name is shown as text", async () => {
    const t = await newTenant();
    const b = await developer(t.tenantId);
    const name = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
    const id = accountIdOf((await connectStripe(b, name)).location)!;
    for (const path of ["/panel/gateways", `/panel/gateways/${id}`]) {
      const html = (await b.get(path)).html;
      expect(html).not.toContain("<script>alert(1)");
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;script>alert(1)&lt;/script>");
    }
  });
});
