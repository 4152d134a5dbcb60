// What every panel page shares (pt-BR): the signed-in member, the frame with its navigation, the CSRF
// field, the error summary and the plain message page. Pages are server-rendered with the hosted pages'
// layout; every action is a plain form POST carrying the CSRF token, so nothing needs JavaScript.
import { Fragment, type ComponentChildren } from "preact";
import { Page, renderDocument } from "../ui/layout.tsx";

export interface Member {
  id: string;
  email: string;
  role: "OWNER" | "ADMIN" | "DEVELOPER" | "SUPPORT" | "VIEWER";
  twoFactorOn: boolean;
  owesTwoFactor: boolean;
  tenantId: string;
  tenantName: string;
  tenantMode: string;
  twoFactorRequired: boolean;
}

export const ROLE_NAMES: Record<Member["role"], string> = {
  OWNER: "Proprietário",
  ADMIN: "Administrador",
  DEVELOPER: "Desenvolvedor",
  SUPPORT: "Suporte",
  VIEWER: "Leitura",
};

export const Csrf = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

/** The error summary at the top of a form (GOV.UK's pattern): focusable, linked to the field. */
export function ErrorSummary({ error, field }: { error?: string | null; field?: string }) {
  if (!error) return null;
  return (
    <div class="alert" role="alert" tabindex={-1}>
      {field ? <a href={`#f-${field}`}>{error}</a> : error}
    </div>
  );
}

/** The panel's sections, in the order of the navigation. */
const NAV: [string, string][] = [
  ["/panel/", "Início"],
  ["/panel/api-keys", "Chaves de API"],
  ["/panel/webhooks", "Webhooks"],
  ["/panel/gateways", "Gateways"],
  ["/panel/settings", "Configurações"],
  ["/panel/audit", "Auditoria"],
  ["/panel/team", "Equipe"],
  ["/panel/sessions", "Sessões"],
  ["/panel/security", "Segurança"],
];

export function PanelPage({ title, member, csrf, children }: { title: string; member?: Member; csrf?: string; children?: ComponentChildren }) {
  return (
    <Page title={`${title} · Painel`}>
      {member && csrf ? (
        <nav class="card" aria-label="Painel">
          <p class="muted">
            {member.tenantName} · {member.email} ({ROLE_NAMES[member.role]})
          </p>
          <p>
            {NAV.map(([href, text], i) => (
              <Fragment key={href}>
                {i ? " · " : null}
                <a href={href}>{text}</a>
              </Fragment>
            ))}
          </p>
          <form method="post" action="/panel/logout">
            <Csrf token={csrf} />
            <button type="submit">Sair</button>
          </form>
        </nav>
      ) : null}
      {children}
    </Page>
  );
}

/** A stored instant as a Brazilian reader expects it. */
export const when = (iso: string) => new Date(iso).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" });

export function messagePage(heading: string, message: string, link?: { href: string; text: string }): string {
  return renderDocument(
    <PanelPage title={heading}>
      <div class="card">
        <h1>{heading}</h1>
        <p>{message}</p>
        {link ? (
          <p>
            <a href={link.href}>{link.text}</a>
          </p>
        ) : null}
      </div>
    </PanelPage>,
  );
}
