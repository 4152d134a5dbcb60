// The seller's identity on the hosted pages: updateTenantProfile's validation, the footer on every page
// kind (checkout, Pix, result, /pay), the LIVE gate without legal name and CNPJ, the tenant's name in
// the sandbox's BR Code (EMV field 59) and the Pix status route.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_TENANT_NAME, seedDemoTenant } from "../../core/demo/seed-demo-tenant.ts";
import { parseBrCode } from "../../core/gateways/pix-br-code.ts";
import { CPF, subscribe } from "../helpers/billing.ts";
import { call, gql, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { tokenOf } from "../links/pay-helpers.ts";

const PROFILE = {
  legalName: "Loja Exemplo Comércio Digital de Software Ltda.",
  cnpj: "11.222.333/0001-81",
  supportEmail: "Ajuda@Loja.example",
  supportPhone: "(11) 3003-4000",
  address: "Rua Augusta, 500, São Paulo - SP, 01304-000",
  termsUrl: "https://loja.example/termos",
  privacyUrl: "https://loja.example/privacidade",
};

const UPDATE = `mutation($t: ID!, $i: TenantProfileInput!) {
  updateTenantProfile(tenantId: $t, input: $i) { id legalName cnpj supportEmail supportPhone address termsUrl privacyUrl } }`;

async function withProfile(opts: { mode?: "LIVE" | "SANDBOX" } = {}): Promise<TestTenant> {
  const t = await newTenant(opts);
  await op(UPDATE, { t: t.tenantId, i: PROFILE });
  return t;
}

/** POST the checkout as a browser form would (same origin), answering the HTML page. */
async function checkoutPage(offerId: string, fields: Record<string, string>) {
  const { baseUrl } = await testService();
  return call("POST", `/checkout/${offerId}`, {
    as: "form",
    headers: { origin: new URL(baseUrl).origin, accept: "text/html" },
    body: { name: "Maria Silva", email: `m${Date.now()}@example.com`, phone: "11987654321", doc: CPF, ...fields },
  });
}

const PIX = { method: "pix" };
const CARD = { method: "card", card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" };

function expectFooter(html: string) {
  expect(html).toContain("<footer");
  expect(html).toContain("Vendido por <strong>Loja Exemplo Comércio Digital de Software Ltda.</strong>");
  expect(html).toContain("CNPJ 11.222.333/0001-81");
  expect(html).toContain("Rua Augusta, 500, São Paulo - SP, 01304-000");
  expect(html).toContain('href="mailto:ajuda@loja.example"');
  expect(html).toContain('href="tel:+551130034000"');
  expect(html).toContain("(11) 3003-4000");
  expect(html).toContain('href="https://loja.example/termos"');
  expect(html).toContain('href="https://loja.example/privacidade"');
  expect(html).toContain("Para cancelar, fale com o atendimento acima a qualquer momento");
  expect(html).toContain("Você pode desistir da compra em até 7 dias após a contratação e receber de volta o valor pago (Código de Defesa do Consumidor, art. 49).");
}

beforeAll(async () => {
  await testService(); // the service starts once, before the first test's clock
}, 180_000);

describe("updateTenantProfile", () => {
  it("stores the CNPJ as digits, shows it formatted and normalizes e-mail and phone", async () => {
    const t = await newTenant();
    const { updateTenantProfile: p } = await op(UPDATE, { t: t.tenantId, i: PROFILE });
    expect(p).toMatchObject({ legalName: PROFILE.legalName, cnpj: "11.222.333/0001-81", supportEmail: "ajuda@loja.example", supportPhone: "+551130034000" });
    const { runtime } = await testService();
    expect((await runtime.db.prisma.tenant.findUniqueOrThrow({ where: { id: t.tenantId } })).cnpj).toBe("11222333000181");
    // A field left out is cleared.
    const { updateTenantProfile: cleared } = await op(UPDATE, { t: t.tenantId, i: { legalName: "Outra Ltda." } });
    expect(cleared).toMatchObject({ legalName: "Outra Ltda.", cnpj: null, termsUrl: null });
  });

  it.each([
    [{ cnpj: "11.222.333/0001-82" }, "cnpj is not a valid CNPJ"],
    [{ cnpj: "11222333" }, "cnpj is not a valid CNPJ"],
    [{ cnpj: "AB.222.333/0001-81" }, "cnpj is not a valid CNPJ"],
    [{ supportEmail: "not-an-address" }, "supportEmail is not an e-mail address"],
    [{ supportPhone: "12345" }, "supportPhone is not a Brazilian phone number"],
    [{ supportPhone: "(11) 0000-0000" }, "supportPhone is not a Brazilian phone number"],
    [{ termsUrl: "javascript:alert(1)" }, "termsUrl must be an http(s) URL"],
    [{ privacyUrl: "ftp://x.example/p" }, "privacyUrl must be an http(s) URL"],
  ])("refuses %j with invalid_argument", async (input, message) => {
    const t = await newTenant();
    const r = await gql(UPDATE, { t: t.tenantId, i: input });
    expect(r.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect(r.errors?.[0]?.message).toBe(message);
  });

  it("asks https of a LIVE tenant's links and keeps its legal name and CNPJ", async () => {
    const t = await newTenant({ mode: "LIVE" });
    const http = await gql(UPDATE, { t: t.tenantId, i: { ...PROFILE, termsUrl: "http://loja.example/termos" } });
    expect(http.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect(http.errors?.[0]?.message).toBe("termsUrl must be an https URL");
    const bare = await gql(UPDATE, { t: t.tenantId, i: { legalName: "Loja Ltda." } });
    expect(bare.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect(bare.errors?.[0]?.message).toBe("a LIVE tenant needs legalName and cnpj");
    // A sandbox may point at http.
    const s = await newTenant();
    expect((await op(UPDATE, { t: s.tenantId, i: { termsUrl: "http://localhost:3000/termos" } })).updateTenantProfile.termsUrl).toBe("http://localhost:3000/termos");
  });

  it("is readable on the Tenant type and refused without the operator token", async () => {
    const t = await withProfile();
    const r = await gql(UPDATE, { t: t.tenantId, i: PROFILE }, t.writeKey);
    expect(r.errors?.length).toBeGreaterThan(0);
    expect(r.data?.updateTenantProfile ?? null).toBeNull();
  });
});

describe("the seller footer", () => {
  it("is on the checkout page, the Pix page, the result page and /pay", async () => {
    const t = await withProfile();
    const page = await call("GET", `/checkout/${t.monthlyOfferId}`);
    expect(page.status).toBe(200);
    expectFooter(page.text);

    const pix = await checkoutPage(t.monthlyOfferId, PIX);
    expect(pix.status).toBe(201);
    expectFooter(pix.text);

    const paid = await checkoutPage(t.monthlyOfferId, CARD);
    expect(paid.status).toBe(201);
    expect(paid.text).toContain("Assinatura ativa");
    expectFooter(paid.text);

    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const link = await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey);
    const pay = await call("GET", `/pay/${tokenOf(link.body.url)}`);
    expect(pay.status).toBe(200);
    expectFooter(pay.text);
  });

  it("shows the first run's demo tenant complete profile on its checkout", async () => {
    const { runtime } = await testService();
    await seedDemoTenant(runtime); // null when an earlier file seeded it
    const demo = await runtime.db.prisma.tenant.findFirstOrThrow({ where: { name: DEMO_TENANT_NAME }, include: { offers: { take: 1 } } });
    const page = await call("GET", `/checkout/${demo.offers[0]!.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Vendido por <strong>Demo SaaS Tecnologia Ltda.</strong> · CNPJ 11.222.333/0001-81");
    expect(page.text).toContain('href="mailto:suporte@demo.example"');
    expect(page.text).toContain('href="https://demo.example/termos"');
  });

  it("names only the tenant when it has no profile yet (sandbox)", async () => {
    const t = await newTenant();
    const page = await call("GET", `/checkout/${t.monthlyOfferId}`);
    expect(page.text).toMatch(/Vendido por <strong>t-[a-z0-9]+<\/strong>/);
    expect(page.text).not.toContain("CNPJ ");
    expect(page.text).toContain("Para cancelar, fale com o atendimento do vendedor");
  });
});

describe("a LIVE tenant without legal name and CNPJ", () => {
  it("shows a clear page instead of the checkout and charges nothing", async () => {
    const t = await newTenant({ mode: "LIVE", withoutProfile: true });
    const page = await call("GET", `/checkout/${t.monthlyOfferId}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain("Pagamento indisponível");
    expect(page.text).toContain("não informou sua razão social e seu CNPJ");
    expect(page.text).not.toContain("<form");
    const posted = await checkoutPage(t.monthlyOfferId, CARD);
    expect(posted.status).toBe(403);
    expect(posted.text).toContain("Nada foi cobrado.");
    const json = await call("POST", `/checkout/${t.monthlyOfferId}`, { headers: { accept: "application/json" }, body: { name: "Maria Silva", email: "m@example.com", phone: "11987654321", doc: CPF, ...CARD } });
    expect(json.status).toBe(403);
    expect((json.body as { code: string }).code).toBe("seller_incomplete");
    const { runtime } = await testService();
    expect(await runtime.db.prisma.payment.count({ where: { tenantId: t.tenantId } })).toBe(0);
    expect(await runtime.db.prisma.customer.count({ where: { tenantId: t.tenantId } })).toBe(0);
    // Once the profile is complete, the page sells.
    await op(UPDATE, { t: t.tenantId, i: PROFILE });
    expect((await call("GET", `/checkout/${t.monthlyOfferId}`)).status).toBe(200);
  });

  it("shows the same page on /pay", async () => {
    const t = await withProfile({ mode: "LIVE" });
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const link = await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey);
    const token = tokenOf(link.body.url);
    expect((await call("GET", `/pay/${token}`)).status).toBe(200);
    const { runtime } = await testService();
    await runtime.db.prisma.tenant.update({ where: { id: t.tenantId }, data: { legalName: null, cnpj: null } });
    const page = await call("GET", `/pay/${token}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain("Pagamento indisponível");
    expect(page.text).not.toContain("<form");
  });
});

describe("the Pix page", () => {
  it("carries the tenant's legal name (first 25 characters) as the BR Code's merchant (field 59)", async () => {
    const t = await withProfile();
    const pix = await call("POST", `/checkout/${t.monthlyOfferId}`, { headers: { accept: "application/json" }, body: { name: "Maria Silva", email: "p@example.com", phone: "11987654321", doc: CPF, ...PIX } });
    expect(pix.status).toBe(201);
    const fields = parseBrCode((pix.body as { pix: { copy_paste: string } }).pix.copy_paste);
    expect(fields?.get("59")).toBe("Loja Exemplo Comercio Dig");
    // Without a legal name, the tenant's name.
    const bare = await newTenant();
    const other = await call("POST", `/checkout/${bare.monthlyOfferId}`, { headers: { accept: "application/json" }, body: { name: "Maria Silva", email: "q@example.com", phone: "11987654321", doc: CPF, ...PIX } });
    expect(parseBrCode((other.body as { pix: { copy_paste: string } }).pix.copy_paste)?.get("59")).toMatch(/^t-[a-z0-9]+$/);
  });

  it("shows amount, seller, expiry and the copy button, and its status route follows the payment", async () => {
    const t = await withProfile();
    const page = await checkoutPage(t.monthlyOfferId, PIX);
    expect(page.status).toBe(201);
    expect(page.text).toContain("R$\u00a049,90"); // Intl pt-BR: a no-break space after R$
    expect(page.text).toContain("Recebedor: Loja Exemplo Comércio Digital de Software Ltda.");
    expect(page.text).toContain("Válido até");
    expect(page.text).toContain('id="pix-copy"');
    expect(page.text).toContain('<script src="/pix/follow.js" defer></script>');
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(page.headers.get("content-security-policy")).toMatch(/connect-src 'self'/);
    const statusUrl = /data-status-url="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, "&");
    const resultUrl = /data-result-url="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, "&");
    expect(page.text).toContain(`<a href="${resultUrl.replace(/&/g, "&amp;")}">Já paguei</a>`);

    const pending = await call("GET", statusUrl);
    expect(pending.status).toBe(200);
    expect(pending.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(pending.body as object).sort()).toEqual(["amount_cents", "expires_at", "status"]);
    expect(pending.body).toMatchObject({ status: "pending", amount_cents: 4990 });
    expect((await call("GET", resultUrl)).text).toContain("Aguardando o pagamento");

    // The id alone, or a wrong key, answers nothing.
    const id = /\/pix\/([^/]+)\/status/.exec(statusUrl)![1]!;
    expect((await call("GET", `/pix/${id}/status`)).status).toBe(404);
    expect((await call("GET", `/pix/${id}/status?k=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await call("GET", `/pix/${id}/result?k=x`)).status).toBe(404);

    const copyPaste = /<textarea id="pix-copy-paste"[^>]*>([^<]+)<\/textarea>/.exec(page.text)![1]!.trim();
    await op(`mutation($c: String!) { simulatePixPayment(copyPaste: $c) { id } }`, { c: copyPaste }, t.writeKey);
    expect((await call("GET", statusUrl)).body).toMatchObject({ status: "paid" });
    const result = await call("GET", resultUrl);
    expect(result.status).toBe(200);
    expect(result.text).toContain("Pagamento confirmado");
    expect(result.text).toContain("Recebemos seu Pix de R$\u00a049,90.");
    expectFooter(result.text);
  });

  it("serves its script as JavaScript", async () => {
    const r = await call("GET", "/pix/follow.js");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(r.text).toContain("navigator.clipboard");
  });
});
