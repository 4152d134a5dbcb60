// Every e-mail template rendered by renderEmail: accessible (axe) at phone and desktop widths in
// Chromium, nothing fetched from the network, values escaped, and the same facts in both parts.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CUSTOMER_TEMPLATES, type EmailContent, type EmailFrame, type RenderedEmail } from "../../core/emails/templates/email-content.ts";
import { renderEmail } from "../../core/emails/templates/render-email.ts";
import { axeViolations, hasChromium, useBrowser } from "../helpers/browser.ts";
import { BR_CODE, CONTENT, CUSTOMER_FRAME, frameFor, VENDOR_FRAME } from "../helpers/email-content.ts";

const HOSTILE = `<script>alert(1)</script> "Zé" d'Ávila & <b>Cia</b>`;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const VARIANTS: [string, EmailContent][] = [
  ...Object.entries(CONTENT),
  ["webhook_endpoint_failing (disabled)", { template: "webhook_endpoint_failing", params: { endpointUrl: "https://hooks.acme.example/x", reason: "disabled", at: "2026-03-06T18:20:00.000Z", eventType: null } }],
];

/** Loads `html` with every request recorded and refused; returns what the page tried to fetch. */
async function load(page: Page, html: string): Promise<string[]> {
  const attempted: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("cid:")) attempted.push(r.url());
  });
  await page.route("**/*", (route) => {
    attempted.push(route.request().url());
    return route.abort();
  });
  await page.setContent(html, { waitUntil: "load" });
  return [...new Set(attempted)];
}

/** The HTML with its cid: images replaced by the attached bytes, as a mail client shows it. */
function withInlineImages(r: RenderedEmail): string {
  return r.inline.reduce((html, i) => html.split(`cid:${i.cid}`).join(`data:${i.contentType};base64,${i.content.toString("base64")}`), r.html);
}

describe("e-mail HTML: nothing remote, nothing raw", () => {
  it.each(VARIANTS)("%s has inline styles only, no script, and every image is a cid: attachment", async (_name, content) => {
    const r = await renderEmail(content, frameFor(content));
    expect(r.html.startsWith("<!doctype html>")).toBe(true);
    expect(r.html).toContain('<html lang="pt-BR">');
    expect(r.html).not.toMatch(/<script|<link|<style|@import|url\(|<iframe|<object|<embed|<form/i);
    const srcs = [...r.html.matchAll(/\ssrc="([^"]*)"/g)].map((m) => m[1]);
    expect(srcs).toEqual(r.inline.map((i) => `cid:${i.cid}`));
    // The only http(s) in an attribute is a link the reader chooses to follow.
    for (const m of r.html.matchAll(/\s([a-z-]+)="https?:/gi)) expect(m[1]).toBe("href");
    expect(r.html).toContain("max-width:600px");
  });
});

describe.skipIf(!hasChromium)("e-mail templates in Chromium", () => {
  const browser = useBrowser();

  for (const viewport of [
    { width: 360, height: 740 },
    { width: 1280, height: 900 },
  ]) {
    it.each(VARIANTS)(`%s at ${viewport.width}px: no axe violation, no request, no horizontal scroll`, async (_name, content) => {
      const r = await renderEmail(content, { ...frameFor(content), sandbox: true });
      const context = await browser().newContext({ viewport, javaScriptEnabled: true });
      try {
        const page = await context.newPage();
        const attempted = await load(page, r.html);
        expect(await axeViolations(page)).toEqual([]);
        expect(attempted).toEqual([]);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
        expect(await page.locator("h1").count()).toBe(1);
      } finally {
        await context.close();
      }
    });
  }

  it("the recorder sees a remote image and axe sees a missing alt (the checks above can fail)", async () => {
    const r = await renderEmail(CONTENT.receipt, CUSTOMER_FRAME);
    const html = r.html.replace("</h1>", '</h1><img src="http://127.0.0.1:9/pixel.png">');
    const context = await browser().newContext();
    try {
      const page = await context.newPage();
      const attempted = await load(page, html);
      expect(attempted).toEqual(["http://127.0.0.1:9/pixel.png"]);
      expect((await axeViolations(page)).map((v) => v.id)).toContain("image-alt");
    } finally {
      await context.close();
    }
  });

  it("the Pix QR code attached under its cid is a PNG the browser draws at 240 px", async () => {
    const r = await renderEmail(CONTENT.pix_charge_issued, CUSTOMER_FRAME);
    expect(r.inline).toHaveLength(1);
    const context = await browser().newContext();
    try {
      const page = await context.newPage();
      await load(page, withInlineImages(r));
      const img = page.locator("img");
      expect(await img.getAttribute("alt")).toBe("QR code do Pix de R$\u00a0129,90");
      const natural = await img.evaluate((el) => [(el as HTMLImageElement).naturalWidth, (el as HTMLImageElement).naturalHeight]);
      expect(natural).toEqual([240, 240]);
    } finally {
      await context.close();
    }
  });

  it("a hostile recipient name, sender name and cancel reason show as text, never as markup", async () => {
    const content: EmailContent = { template: "subscription_canceled", params: { ...(CONTENT.subscription_canceled.params as object), reason: HOSTILE } as never };
    const r = await renderEmail(content, { senderName: `Loja ${HOSTILE}`, recipientName: HOSTILE, sandbox: false });
    expect(r.html).not.toContain("<script>");
    expect(r.html).not.toContain("<b>Cia");
    const context = await browser().newContext();
    try {
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await load(page, r.html);
      expect(await page.locator("script, b").count()).toBe(0);
      const text = await page.locator("body").innerText();
      expect(text).toContain(`Olá, ${HOSTILE},`);
      expect(text).toContain(HOSTILE.replace(/\s+/g, " "));
      expect(await page.locator("blockquote").innerText()).toBe(HOSTILE);
      expect(dialogs).toEqual([]);
    } finally {
      await context.close();
    }
    expect(r.text).toContain(`Olá, ${HOSTILE},`);
    expect(r.text).toContain(`Motivo informado: ${HOSTILE}`);
    expect(r.text).toContain(`Equipe Loja ${HOSTILE}`);
  });
});

describe("the facts, in both parts", () => {
  /** Every expected string in the text part and in the HTML's visible text. */
  async function both(content: EmailContent, expected: string[], frame: EmailFrame = frameFor(content)): Promise<RenderedEmail> {
    const r = await renderEmail(content, frame);
    // Intl puts a no-break space between "R$" and the digits (it keeps the amount on one line).
    const text = r.text.replace(/\u00a0/g, " ");
    const visible = r.html
      .replace(/\u00a0/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&amp;/g, "&")
      .replace(/\s+/g, " ");
    for (const s of expected) {
      expect(text, `text part: ${s}`).toContain(s);
      expect(visible, `HTML part: ${s}`).toContain(s);
    }
    return r;
  }

  it("receipt: amount charged, card brand and last 4, period, next charge date and amount", async () => {
    const r = await both(CONTENT.receipt, [
      "R$ 44,91",
      "Cartão Visa final 4242",
      "1 de março de 2026 a 1 de abril de 2026",
      "R$ 49,90 em 1 de abril de 2026",
      "inv_01HZRECEIPT",
      "Olá, Maria Silva,",
      "Equipe Acme Cursos",
    ]);
    expect(r.subject).toBe("Recibo de Acme Cursos: pagamento de R$\u00a044,91 confirmado");
    expect(r.inline).toEqual([]);
  });

  it("receipt paid by Pix for an order without a next charge", async () => {
    const params = { ...(CONTENT.receipt.params as object), subject: "order", method: { kind: "pix" }, periodStart: null, periodEnd: null, nextChargeAt: null, nextChargeCents: null };
    const r = await both({ template: "receipt", params } as EmailContent, ["sua compra de Curso de Violão (plano Mensal)", "R$ 44,91"]);
    expect(r.text).toContain("Forma de pagamento: Pix");
    expect(r.text).not.toContain("Próxima cobrança");
    expect(r.text).not.toContain("Período");
  });

  it("pix_charge_issued: amount, expiry, the copy-and-paste code, the QR code by cid, the payment page", async () => {
    const r = await both(CONTENT.pix_charge_issued, ["R$ 129,90", "04/03/2026, 12:30", BR_CODE, "https://billing.example.com/pay/pay_01HZPIX?t=abc123", "Pix Copia e Cola"]);
    const [qr] = r.inline;
    expect(qr?.contentType).toBe("image/png");
    expect(qr?.content.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(r.html).toContain(`<img src="cid:${qr!.cid}"`);
    expect(r.html).toContain('href="https://billing.example.com/pay/pay_01HZPIX?t=abc123"');
  });

  it("payment_declined: amount, card, next retry, suspension date and the /pay link", async () => {
    const r = await both(CONTENT.payment_declined, ["R$ 49,90", "cartão Mastercard final 5454", "Vamos tentar de novo em 4 de março de 2026.", "até 15 de março de 2026", "https://billing.example.com/pay/inv_01HZDECLINED?t=xyz"]);
    expect(r.html).toContain('href="https://billing.example.com/pay/inv_01HZDECLINED?t=xyz"');
  });

  it("trial_ending: the end date and the first charge", async () => {
    await both(CONTENT.trial_ending, ["termina em 10 de março de 2026", "R$ 49,90", "cartão Elo final 1234"]);
  });

  it("subscription_suspended: date, open amount and the /pay link", async () => {
    const r = await both(CONTENT.subscription_suspended, ["suspensa em 15 de março de 2026", "R$ 49,90", "https://billing.example.com/pay/inv_01HZSUSP?t=s1"]);
    expect(r.html).toContain('href="https://billing.example.com/pay/inv_01HZSUSP?t=s1"');
  });

  it("subscription_canceled: the reason given and the date access ends", async () => {
    await both(CONTENT.subscription_canceled, ["cancelada em 5 de março de 2026", "Você continua com acesso até 1 de abril de 2026.", "Ficou caro para mim agora."]);
    const none = { ...(CONTENT.subscription_canceled.params as object), reason: null, accessEndsAt: "2026-03-05T15:00:00.000Z" };
    const r = await both({ template: "subscription_canceled", params: none } as EmailContent, ["O acesso terminou em 5 de março de 2026."]);
    expect(r.text).not.toContain("Motivo");
  });

  it("refund_issued: amount, method and reference", async () => {
    const r = await both(CONTENT.refund_issued, ["R$ 25,00", "Devolvido para", "pay_01HZREFUND", "06/03/2026, 12:00", "O valor volta para a conta que fez o Pix."]);
    expect(r.text).toContain("Devolvido para: Pix");
  });

  it("webhook_endpoint_failing: the endpoint, the event, exhausted or disabled", async () => {
    const r = await both(CONTENT.webhook_endpoint_failing, ["https://hooks.acme.example/billing/webhooks/receive-all-events-from-the-billing-service-please", "invoice.paid", "Tentativas esgotadas"]);
    expect(r.text).toContain("Serviço de cobranças");
    expect(r.text).not.toContain("Olá, Maria");
    const disabled = { ...(CONTENT.webhook_endpoint_failing.params as object), reason: "disabled", eventType: null };
    const d = await both({ template: "webhook_endpoint_failing", params: disabled } as EmailContent, ["Endpoint desativado", "foi desativado em 06/03/2026, 15:20"]);
    expect(d.subject).toBe("Endpoint de webhook desativado: https://hooks.acme.example/billing/webhooks/receive-all-events-from-the-billing-service-please");
  });

  it("gateway_credentials_refused: provider and account, never a secret field", async () => {
    const r = await both(CONTENT.gateway_credentials_refused, ["Pagar.me", "Conta principal (gwa_01HZ)", "06/03/2026, 15:20"]);
    expect(r.subject).toBe("O Pagar.me recusou as credenciais da conta Conta principal (gwa_01HZ)");
  });

  it("team_invitation: team, role in pt-BR, who invited, the link and until when it works", async () => {
    const r = await both(CONTENT.team_invitation, [
      "joana@acme.example.com convidou você",
      "administrador",
      "Acme Cursos",
      "https://cobrancas.example.com/panel/invite/3kQ9xV2mP7aL0cR5tY8wZ1bN4dF6gH9jK2lM5nO8pQ1",
      "13/03/2026, 15:20",
      "vale uma única vez",
    ]);
    expect(r.subject).toBe("Convite para a equipe de Acme Cursos no painel de cobranças");
    const anonymous = await renderEmail({ template: "team_invitation", params: { ...CONTENT.team_invitation.params, inviter: null } } as EmailContent, VENDOR_FRAME);
    expect(anonymous.text).toContain("Você foi convidado para a equipe de Acme Cursos");
  });

  it("password_reset: the link, until when it works, and to ignore it if it was not you", async () => {
    const r = await both(CONTENT.password_reset, [
      "https://cobrancas.example.com/panel/reset/7hT2wQ9eR4yU1iO6pA3sD8fG5hJ0kL2zX7cV4bN1mQ9",
      "06/03/2026, 16:20",
      "Se não foi você, ignore este e-mail",
      "Acme Cursos",
    ]);
    expect(r.subject).toBe("Redefinição de senha do painel de cobranças (Acme Cursos)");
  });

  it("sandbox: [TESTE] in the subject and a visible note that no money moved, in both parts", async () => {
    for (const content of Object.values(CONTENT)) {
      const test = await renderEmail(content, { ...frameFor(content), sandbox: true });
      expect(test.subject.startsWith("[TESTE] ")).toBe(true);
      expect(test.text).toContain("nenhum dinheiro foi movimentado");
      expect(test.html).toContain("nenhum dinheiro foi movimentado");
      const live = await renderEmail(content, frameFor(content));
      expect(live.subject).not.toContain("[TESTE]");
      expect(live.text + live.html).not.toContain("nenhum dinheiro foi movimentado");
    }
  });

  it("every customer template greets by name when known and plainly otherwise", async () => {
    for (const t of CUSTOMER_TEMPLATES) {
      const named = await renderEmail(CONTENT[t], CUSTOMER_FRAME);
      expect(named.text).toContain("Olá, Maria Silva,");
      const anonymous = await renderEmail(CONTENT[t], { ...CUSTOMER_FRAME, recipientName: null });
      expect(anonymous.text).toMatch(/^Olá,$/m);
      expect(anonymous.html).not.toContain("null");
    }
    expect((await renderEmail(CONTENT.gateway_credentials_refused, VENDOR_FRAME)).text).toMatch(/^Olá,$/m);
  });

  it("a subject never carries a line break, and a pay link that is not http(s) is never an href", async () => {
    const params = { ...(CONTENT.subscription_suspended.params as object), planName: "Mensal\r\nBcc: x@evil.example", payUrl: "javascript:alert(1)" };
    const r = await renderEmail({ template: "subscription_suspended", params } as EmailContent, { ...CUSTOMER_FRAME, senderName: "Acme\nCursos" });
    expect(r.subject).toBe("Sua assinatura do plano Mensal Bcc: x@evil.example foi suspensa (Acme Cursos)");
    expect(r.html).not.toContain('href="javascript');
    expect(r.text).toContain("javascript:alert(1)");
  });
});
