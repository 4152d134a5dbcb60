// The panel's settings: the company profile an owner or admin saves shows on the checkout's footer; a bad
// CNPJ or phone is told under its field with the typed values kept; hostile profile text stays text;
// e-mail settings and alarm contacts; read-only mode shown (and it holds); the sandbox clock moved by a
// duration and to a date, with the summary shown. Viewers (and developers, for the profile) are refused.
import { beforeAll, describe, expect, it } from "vitest";
import { call, op } from "../helpers/http.ts";
import { newMember, signIn, type PanelBrowser } from "../helpers/panel.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

beforeAll(async () => {
  await testService();
});

const PROFILE = {
  legalName: "Loja do Painel Comércio de Software Ltda.",
  cnpj: "11.222.333/0001-81",
  supportEmail: "Ajuda@Painel.example",
  supportPhone: "(11) 3003-4000",
  address: "Av. Paulista, 1000, São Paulo - SP",
  termsUrl: "https://painel.example/termos",
  privacyUrl: "https://painel.example/privacidade",
};

async function member(tenantId: string, role: string): Promise<PanelBrowser> {
  const m = await newMember(tenantId, role);
  return signIn(m.email, m.password);
}

const tenantOf = async (id: string) =>
  (await op(`query($t: ID!) { tenant(id: $t) { legalName cnpj supportPhone clockAt contactEmails emailSettings { senderName replyTo customerEmailsOff } } }`, { t: id })).tenant;

describe("panel settings", () => {
  it("an owner saves the company profile and the checkout's footer shows it", async () => {
    const t = await newTenant();
    const b = await member(t.tenantId, "OWNER");
    const saved = await b.submit("/panel/settings", "/panel/settings/profile", PROFILE);
    expect(saved.status).toBe(303);
    const page = await b.get(saved.location!);
    expect(page.html).toContain("Perfil salvo.");
    expect(page.html).toContain('value="11.222.333/0001-81"');
    expect(page.html).toContain('value="+551130034000"');
    const checkout = await call("GET", `/checkout/${t.monthlyOfferId}`);
    expect(checkout.status).toBe(200);
    expect(checkout.text).toContain(`Vendido por <strong>${PROFILE.legalName}</strong>`);
    expect(checkout.text).toContain("CNPJ 11.222.333/0001-81");
    expect(checkout.text).toContain('href="mailto:ajuda@painel.example"');
    expect(checkout.text).toContain("(11) 3003-4000");
    expect(checkout.text).toContain('href="https://painel.example/privacidade"');
  });

  it("an invalid CNPJ or phone is told under its field, the typed values kept and nothing saved", async () => {
    const t = await newTenant();
    const b = await member(t.tenantId, "ADMIN");
    const bad = await b.submit("/panel/settings", "/panel/settings/profile", { ...PROFILE, cnpj: "11.222.333/0001-82" });
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('<a href="#f-cnpj">Informe um CNPJ válido');
    expect(bad.html).toMatch(/id="f-cnpj"[^>]*aria-invalid="true"/);
    expect(bad.html).toContain('value="11.222.333/0001-82"');
    expect(bad.html).toContain(`value="${PROFILE.legalName}"`);
    const phone = await b.submit("/panel/settings", "/panel/settings/profile", { ...PROFILE, supportPhone: "12345" });
    expect(phone.status).toBe(422);
    expect(phone.html).toContain('<a href="#f-supportPhone">Informe um telefone brasileiro válido');
    expect((await tenantOf(t.tenantId)).legalName).toBeNull();
  });

  it("hostile profile text is shown as text on the panel and on the checkout; a javascript: URL is refused", async () => {
    const t = await newTenant();
    const b = await member(t.tenantId, "OWNER");
    const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
    const saved = await b.submit("/panel/settings", "/panel/settings/profile", { legalName: hostile, address: `"><svg onload=alert(3)>` });
    expect(saved.status).toBe(303);
    for (const html of [(await b.get("/panel/settings")).html, (await call("GET", `/checkout/${t.monthlyOfferId}`)).text]) {
      expect(html).not.toContain("<script>alert(1)");
      expect(html).not.toContain("<img src=x");
      expect(html).not.toContain("<svg onload");
      expect(html).toContain("&lt;script>alert(1)&lt;/script>");
    }
    const js = await b.submit("/panel/settings", "/panel/settings/profile", { ...PROFILE, termsUrl: "javascript:alert(1)" });
    expect(js.status).toBe(422);
    expect(js.html).toContain('<a href="#f-termsUrl">Informe um endereço https://');
  });

  it("e-mail settings and alarm contacts are saved; a bad reply-to is refused", async () => {
    const t = await newTenant();
    const b = await member(t.tenantId, "OWNER");
    // Every customer e-mail on but the receipt.
    const on = Object.fromEntries(["pix_charge_issued", "payment_declined", "trial_ending", "subscription_suspended", "subscription_canceled", "refund_issued"].map((k) => [`on_${k}`, "1"]));
    const saved = await b.submit("/panel/settings", "/panel/settings/email", { senderName: "Loja do Painel", replyTo: "Suporte@Painel.example", ...on });
    expect(saved.status).toBe(303);
    expect((await b.get(saved.location!)).html).toContain("Configurações de e-mail salvas.");
    expect((await tenantOf(t.tenantId)).emailSettings).toEqual({ senderName: "Loja do Painel", replyTo: "suporte@painel.example", customerEmailsOff: ["receipt"] });
    const page = await b.get("/panel/settings");
    expect(page.html).toMatch(/name="on_receipt" value="1"\/?>/);
    expect(page.html).toMatch(/name="on_trial_ending" value="1" checked/);
    const bad = await b.submit("/panel/settings", "/panel/settings/email", { senderName: "x", replyTo: "não é e-mail" });
    expect(bad.status).toBe(422);
    expect(bad.html).toContain("Informe um e-mail válido para respostas.");

    const contacts = await b.submit("/panel/settings", "/panel/settings/contacts", { contacts: "Dev@Painel.example\nfinanceiro@painel.example" });
    expect(contacts.status).toBe(303);
    expect((await tenantOf(t.tenantId)).contactEmails).toEqual(["dev@painel.example", "financeiro@painel.example"]);
    const wrong = await b.submit("/panel/settings", "/panel/settings/contacts", { contacts: "a@b.example\nnada" });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain("Há um endereço que não é um e-mail válido.");
    expect(wrong.html).toContain("nada</textarea>");
  });

  it("read-only mode is shown, not switchable, and holds", async () => {
    const t = await newTenant();
    const b = await member(t.tenantId, "OWNER");
    expect((await b.get("/panel/settings")).html).toContain("Desativado");
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { id } }`, { t: t.tenantId });
    const page = await b.get("/panel/settings");
    expect(page.html).toContain("Ativo: alterações suspensas");
    expect(page.html).not.toMatch(/name="readOnly"/);
    const refused = await b.submit("/panel/settings", "/panel/settings/profile", PROFILE);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("Conta em modo somente leitura");
    expect((await tenantOf(t.tenantId)).legalName).toBeNull();
  });

  it("the sandbox clock is shown and moved from the panel, by a duration and to a date, with the summary", async () => {
    const t = await newTenant();
    const b = await member(t.tenantId, "DEVELOPER");
    const before = new Date((await tenantOf(t.tenantId)).clockAt);
    const page = await b.get("/panel/settings");
    expect(page.html).toContain("Relógio do sandbox");
    const moved = await b.submit("/panel/settings", "/panel/settings/clock", { how: "by", amount: "2", unit: "days" });
    expect(moved.status).toBe(200);
    expect(moved.html).toContain("Relógio movido de");
    expect(moved.html).toContain("Faturas pagas");
    const after = new Date((await tenantOf(t.tenantId)).clockAt);
    expect(after.getTime() - before.getTime()).toBe(2 * 24 * 3_600_000);

    // Past the first renewal (monthly offer, no subscription yet: nothing to renew, the clock still goes).
    const target = new Date(after.getTime() + 40 * 24 * 3_600_000);
    const local = new Date(target.getTime() - 3 * 3_600_000).toISOString().slice(0, 16);
    const dated = await b.submit("/panel/settings", "/panel/settings/clock", { how: "to", to: local });
    expect(dated.status).toBe(200);
    // The date is read as São Paulo time (UTC−3).
    expect(new Date((await tenantOf(t.tenantId)).clockAt).toISOString()).toBe(new Date(`${local}:00-03:00`).toISOString());
    expect(new Date(`${local}:00-03:00`).getTime()).toBe(Math.floor(target.getTime() / 60_000) * 60_000);
    const back = await b.submit("/panel/settings", "/panel/settings/clock", { how: "to", to: "2020-01-01T00:00" });
    expect(back.status).toBe(422);
    expect(back.html).toContain("O relógio só anda para a frente");

    const live = await newTenant({ mode: "LIVE" });
    expect((await (await member(live.tenantId, "OWNER")).get("/panel/settings")).html).not.toContain("Relógio do sandbox");
  });

  it("a viewer reads the settings but every form they post is refused; a developer may not change the profile", async () => {
    const t = await newTenant();
    const v = await member(t.tenantId, "VIEWER");
    const page = await v.get("/panel/settings");
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('action="/panel/settings/profile"');
    expect(page.html).not.toContain('action="/panel/settings/clock"');
    const clockAt = (await tenantOf(t.tenantId)).clockAt;
    for (const [action, form] of [
      ["/panel/settings/profile", PROFILE],
      ["/panel/settings/email", { senderName: "x" }],
      ["/panel/settings/contacts", { contacts: "a@b.example" }],
      ["/panel/settings/clock", { how: "by", amount: "1", unit: "days" }],
    ] as const) {
      const refused = await v.submit("/panel/settings", action, form);
      expect({ action, status: refused.status }).toEqual({ action, status: 403 });
      expect(refused.html).toContain("O seu papel na equipe não permite esta ação.");
    }
    const d = await member(t.tenantId, "DEVELOPER");
    expect((await d.get("/panel/settings")).html).not.toContain('action="/panel/settings/profile"');
    const dev = await d.submit("/panel/settings", "/panel/settings/profile", PROFILE);
    expect(dev.status).toBe(403);
    const now = await tenantOf(t.tenantId);
    expect(now.legalName).toBeNull();
    expect(now.contactEmails).toEqual([]);
    expect(now.clockAt).toBe(clockAt);
  });
});
