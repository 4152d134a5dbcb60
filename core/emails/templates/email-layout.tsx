// The one layout every e-mail shares, and the small blocks templates are made of. E-mail clients
// ignore <style> and external CSS, so the layout is nested tables with inline styles, fluid up to
// 600px (a phone at 360px reads it without zoom), and nothing is fetched: images travel as cid:
// attachments. The HTML is Preact rendered to a string, so every value is escaped by the renderer;
// the plain-text part is built from the same strings, so both parts state the same facts.
import type { ComponentChildren, VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import type { EmailFrame, InlineImage } from "./email-content.ts";

/** What a template returns: its words once, as HTML blocks and as plain-text paragraphs. */
export interface TemplateBody {
  /** customer: a person who bought something; vendor: the tenant's own team. */
  audience: "customer" | "vendor";
  heading: string;
  /** The line inboxes show after the subject. */
  preheader: string;
  html: ComponentChildren;
  /** Plain-text paragraphs, joined with a blank line. */
  text: string[];
  inline?: InlineImage[];
}

/** A label and its value, as a two-column table row and as "Label: value". */
export type Fact = readonly [label: string, value: string];

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = "#1d2330";
const MUTED = "#4f5869";
const ACCENT = "#1a4fd6";
const PAGE_BG = "#f3f5f8";

export function greeting(frame: EmailFrame): string {
  const name = frame.recipientName?.trim();
  return name ? `Olá, ${name},` : "Olá,";
}

export const SANDBOX_NOTE = "Este é um e-mail de teste (ambiente sandbox): nenhum dinheiro foi movimentado.";

function footer(body: TemplateBody, frame: EmailFrame): string {
  return body.audience === "customer"
    ? `Você recebeu este e-mail porque é cliente de ${frame.senderName}.`
    : `Aviso automático do serviço de cobranças para a equipe de ${frame.senderName}.`;
}

function signature(body: TemplateBody, frame: EmailFrame): string {
  return body.audience === "customer" ? `Equipe ${frame.senderName}` : "Serviço de cobranças";
}

/** Only web links become links: anything else is shown as text, never as an href. */
export function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

export function P({ children, muted }: { children: ComponentChildren; muted?: boolean }) {
  return <p style={{ margin: "0 0 16px", color: muted ? MUTED : INK, fontSize: muted ? "14px" : "16px", lineHeight: "1.5" }}>{children}</p>;
}

export function Facts({ rows }: { rows: readonly Fact[] }) {
  return (
    <table cellPadding="0" cellSpacing="0" width="100%" style={{ borderCollapse: "collapse", margin: "0 0 20px", fontSize: "15px", lineHeight: "1.4" }}>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row" style={{ textAlign: "left", verticalAlign: "top", fontWeight: "normal", color: MUTED, padding: "8px 12px 8px 0", borderTop: "1px solid #e3e6ec", width: "40%" }}>
              {label}
            </th>
            <td style={{ verticalAlign: "top", color: INK, fontWeight: "bold", padding: "8px 0", borderTop: "1px solid #e3e6ec", overflowWrap: "anywhere", wordBreak: "break-word" }}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function factsText(rows: readonly Fact[]): string {
  return rows.map(([label, value]) => `${label}: ${value}`).join("\n");
}

/** A call to action; the address is also printed for clients that drop the button. */
export function Button({ href, children }: { href: string; children: string }) {
  const link = safeHref(href);
  return (
    <>
      <table role="presentation" cellPadding="0" cellSpacing="0" style={{ margin: "4px 0 12px" }}>
        <tr>
          <td style={{ borderRadius: "6px", background: ACCENT }}>
            <a href={link} style={{ display: "inline-block", padding: "12px 22px", color: "#ffffff", background: ACCENT, borderRadius: "6px", fontSize: "16px", fontWeight: "bold", textDecoration: "none" }}>
              {children}
            </a>
          </td>
        </tr>
      </table>
      <P muted>
        Se o botão não abrir, copie este endereço no navegador: <span style={{ overflowWrap: "anywhere", wordBreak: "break-all" }}>{href}</span>
      </P>
    </>
  );
}

/** Text meant to be copied as is (a Pix code, an endpoint address). */
export function Code({ label, children }: { label: string; children: string }) {
  return (
    <div style={{ margin: "0 0 16px" }}>
      <p style={{ margin: "0 0 6px", color: MUTED, fontSize: "14px" }}>{label}</p>
      <p style={{ margin: 0, padding: "12px", background: PAGE_BG, border: "1px solid #d5dae3", borderRadius: "6px", fontFamily: "Menlo,Consolas,'Courier New',monospace", fontSize: "14px", lineHeight: "1.4", color: INK, overflowWrap: "anywhere", wordBreak: "break-all" }}>
        {children}
      </p>
    </div>
  );
}

/** Words someone else wrote (the reason given at cancel), set apart from ours. */
export function Quote({ children }: { children: string }) {
  return (
    <blockquote style={{ margin: "0 0 16px", padding: "8px 12px", borderLeft: `4px solid #c4cad6`, color: INK, fontSize: "15px", lineHeight: "1.5", whiteSpace: "pre-line", overflowWrap: "anywhere" }}>
      {children}
    </blockquote>
  );
}

function Layout({ subject, frame, body }: { subject: string; frame: EmailFrame; body: TemplateBody }): VNode {
  return (
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
        <title>{subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: PAGE_BG, fontFamily: FONT, color: INK }}>
        {/* The inbox preview line; hidden from the body and from screen readers. */}
        <div aria-hidden="true" style={{ display: "none", maxHeight: 0, overflow: "hidden", opacity: 0, fontSize: "1px", lineHeight: "1px", color: PAGE_BG }}>
          {body.preheader}
        </div>
        <main>
          <div role="article" aria-roledescription="e-mail" aria-label={subject} lang="pt-BR">
            <table role="presentation" cellPadding="0" cellSpacing="0" width="100%" style={{ background: PAGE_BG }}>
              <tr>
                <td align="center" style={{ padding: "16px 8px" }}>
                  <table role="presentation" cellPadding="0" cellSpacing="0" width="100%" style={{ maxWidth: "600px", margin: "0 auto" }}>
                    <tr>
                      <td style={{ padding: "4px 8px 12px", fontSize: "15px", fontWeight: "bold", color: INK }}>{frame.senderName}</td>
                    </tr>
                    {frame.sandbox && (
                      <tr>
                        <td style={{ padding: "10px 16px", background: "#fff4d6", color: "#5c3d00", border: "1px solid #e8c766", borderRadius: "8px", fontSize: "14px", fontWeight: "bold" }}>
                          {SANDBOX_NOTE}
                        </td>
                      </tr>
                    )}
                    <tr>
                      <td style={{ padding: frame.sandbox ? "12px 0 0" : 0 }}>
                        <table role="presentation" cellPadding="0" cellSpacing="0" width="100%" style={{ background: "#ffffff", borderRadius: "8px", border: "1px solid #e3e6ec" }}>
                          <tr>
                            <td style={{ padding: "24px 20px 8px" }}>
                              <h1 style={{ margin: "0 0 16px", fontSize: "22px", lineHeight: "1.3", color: INK }}>{body.heading}</h1>
                              <P>{greeting(frame)}</P>
                              {body.html}
                              <P>{signature(body, frame)}</P>
                            </td>
                          </tr>
                        </table>
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "12px 8px", fontSize: "13px", lineHeight: "1.5", color: MUTED }}>{footer(body, frame)}</td>
                    </tr>
                  </table>
                </td>
              </tr>
            </table>
          </div>
        </main>
      </body>
    </html>
  );
}

/** The two parts of an e-mail from one template body. */
export function renderLayout(subject: string, frame: EmailFrame, body: TemplateBody): { html: string; text: string } {
  const html = `<!doctype html>\n${renderToString(<Layout subject={subject} frame={frame} body={body} />)}`;
  const parts = [
    ...(frame.sandbox ? [`*** ${SANDBOX_NOTE} ***`] : []),
    body.heading,
    greeting(frame),
    ...body.text,
    signature(body, frame),
    "--",
    footer(body, frame),
  ];
  return { html, text: `${parts.join("\n\n")}\n` };
}
