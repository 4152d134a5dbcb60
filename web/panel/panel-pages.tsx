// The panel's pages (pt-BR), server-rendered with the hosted pages' layout. Every action is a plain
// form POST carrying the CSRF token; nothing needs JavaScript.
import type { ComponentChildren } from "preact";
import { Page, renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";

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

const Csrf = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

/** The error summary at the top of a form (GOV.UK's pattern): focusable, linked to the field. */
function ErrorSummary({ error, field }: { error?: string | null; field?: string }) {
  if (!error) return null;
  return (
    <div class="alert" role="alert" tabindex={-1}>
      {field ? <a href={`#f-${field}`}>{error}</a> : error}
    </div>
  );
}

function PanelPage({ title, member, csrf, children }: { title: string; member?: Member; csrf?: string; children?: ComponentChildren }) {
  return (
    <Page title={`${title} · Painel`}>
      {member && csrf ? (
        <nav class="card" aria-label="Painel">
          <p class="muted">
            {member.tenantName} · {member.email} ({ROLE_NAMES[member.role]})
          </p>
          <p>
            <a href="/panel/">Início</a> · <a href="/panel/team">Equipe</a> · <a href="/panel/sessions">Sessões</a> · <a href="/panel/security">Segurança</a>
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

export function loginPage(p: { csrf: string; email?: string; error?: string | null; step: "password" | "code" }): string {
  return renderDocument(
    <PanelPage title="Entrar">
      <div class="card">
        <h1>Entrar no painel</h1>
        <ErrorSummary error={p.error} field={p.step === "code" ? "code" : "email"} />
        <form method="post" action="/panel/login">
          <Csrf token={p.csrf} />
          {p.step === "password" ? (
            <>
              <TextField name="email" label="E-mail" type="email" value={p.email ?? ""} autocomplete="username" required maxlength={254} />
              <TextField name="password" label="Senha" type="password" value="" autocomplete="current-password" required maxlength={1024} />
            </>
          ) : (
            <>
              <p class="muted">Digite o código de 6 dígitos do seu aplicativo autenticador, ou um código de recuperação.</p>
              <TextField name="code" label="Código de verificação" value="" autocomplete="one-time-code" inputmode="numeric" required maxlength={64} />
            </>
          )}
          <button type="submit">{p.step === "password" ? "Entrar" : "Verificar"}</button>
        </form>
        {p.step === "password" ? (
          <p>
            <a href="/panel/forgot">Esqueci a senha</a>
          </p>
        ) : null}
        {p.step === "code" ? (
          <form method="post" action="/panel/login/restart">
            <Csrf token={p.csrf} />
            <button type="submit">Voltar e entrar com outra conta</button>
          </form>
        ) : null}
      </div>
    </PanelPage>,
  );
}

export function homePage(p: { member: Member; csrf: string }): string {
  const m = p.member;
  return renderDocument(
    <PanelPage title="Início" member={m} csrf={p.csrf}>
      <div class="card">
        <h1>{m.tenantName}</h1>
        <p class="muted">
          Conta {m.tenantMode === "SANDBOX" ? "de testes (sandbox)" : "de produção"} · {m.tenantId}
        </p>
        <dl>
          <dt>Você entrou como</dt>
          <dd>{m.email}</dd>
          <dt>Papel</dt>
          <dd>{ROLE_NAMES[m.role]}</dd>
          <dt>Verificação em duas etapas</dt>
          <dd>{m.twoFactorOn ? "ativa" : "desativada"}</dd>
        </dl>
      </div>
    </PanelPage>,
  );
}

export interface SessionRow {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string;
  address: string;
  current: boolean;
}

const when = (iso: string) => new Date(iso).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" });

export function sessionsPage(p: { member: Member; csrf: string; sessions: SessionRow[] }): string {
  return renderDocument(
    <PanelPage title="Sessões" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Sessões ativas</h1>
        <ul>
          {p.sessions.map((s) => (
            <li key={s.id}>
              <strong>{s.current ? "Esta sessão" : s.userAgent || "Navegador desconhecido"}</strong>
              <p class="muted">
                {s.address || "endereço desconhecido"} · entrou em {when(s.createdAt)} · último acesso {when(s.lastSeenAt)}
              </p>
            </li>
          ))}
        </ul>
        <form method="post" action="/panel/sessions/sign-out-everywhere">
          <Csrf token={p.csrf} />
          <button type="submit">Sair de todas as sessões</button>
        </form>
      </div>
    </PanelPage>,
  );
}

export function securityPage(p: {
  member: Member;
  csrf: string;
  setup: { secret: string; uri: string; qr: string } | null;
  error?: string | null;
  notice?: string | null;
}): string {
  const m = p.member;
  return renderDocument(
    <PanelPage title="Segurança" member={m} csrf={p.csrf}>
      <div class="card">
        <h1>Verificação em duas etapas</h1>
        {p.notice ? <p role="status">{p.notice}</p> : null}
        {m.owesTwoFactor ? <div class="alert">A sua equipe exige a verificação em duas etapas. Ative-a para continuar usando o painel.</div> : null}
        <ErrorSummary error={p.error} field="code" />
        {m.twoFactorOn ? (
          <p>Ativa: ao entrar, pedimos um código do seu aplicativo autenticador.</p>
        ) : p.setup ? (
          <>
            <p>Escaneie o código QR com o aplicativo autenticador (ou digite a chave) e confirme com o código que ele mostrar.</p>
            <img class="qr" src={p.setup.qr} alt="Código QR para o aplicativo autenticador" width={256} height={256} />
            <p>
              Chave: <code>{p.setup.secret}</code>
            </p>
            <p class="muted">
              <a href={p.setup.uri}>Abrir no aplicativo autenticador</a>
            </p>
            <form method="post" action="/panel/security/two-factor/confirm">
              <Csrf token={p.csrf} />
              <TextField name="code" label="Código de 6 dígitos" value="" autocomplete="one-time-code" inputmode="numeric" required maxlength={64} error={p.error} />
              <button type="submit">Confirmar e ativar</button>
            </form>
          </>
        ) : (
          <form method="post" action="/panel/security/two-factor/start">
            <Csrf token={p.csrf} />
            <p>Desativada. Ative para proteger a sua conta com um código do aplicativo autenticador.</p>
            <button type="submit">Ativar verificação em duas etapas</button>
          </form>
        )}
      </div>
      {m.role === "OWNER" ? (
        <div class="card">
          <h2>Exigir da equipe</h2>
          <p>{m.twoFactorRequired ? "Exigida: todos da equipe precisam ativá-la." : "Não exigida: cada pessoa decide."}</p>
          <form method="post" action="/panel/security/require-two-factor">
            <Csrf token={p.csrf} />
            <input type="hidden" name="required" value={m.twoFactorRequired ? "off" : "on"} />
            <button type="submit">{m.twoFactorRequired ? "Deixar de exigir" : "Exigir de toda a equipe"}</button>
          </form>
        </div>
      ) : null}
    </PanelPage>,
  );
}

export function recoveryCodesPage(p: { member: Member; csrf: string; codes: string[] }): string {
  return renderDocument(
    <PanelPage title="Códigos de recuperação" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Verificação em duas etapas ativada</h1>
        <p>Guarde estes códigos de recuperação em lugar seguro. Cada um vale uma vez, se você perder o aplicativo. Eles não serão mostrados de novo.</p>
        <ul class="recovery">
          {p.codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <p>
          <a href="/panel/">Continuar</a>
        </p>
      </div>
    </PanelPage>,
  );
}

export function invitePage(p: { csrf: string; token: string; email: string; tenantName: string; error?: string | null }): string {
  return renderDocument(
    <PanelPage title="Convite">
      <div class="card">
        <h1>Entrar na equipe {p.tenantName}</h1>
        <p>
          Convite para <strong>{p.email}</strong>. Escolha uma senha com pelo menos 12 caracteres.
        </p>
        <ErrorSummary error={p.error} field="password" />
        <form method="post" action={`/panel/invite/${encodeURIComponent(p.token)}`}>
          <Csrf token={p.csrf} />
          <input type="hidden" name="email" value={p.email} autocomplete="username" />
          <TextField name="password" label="Nova senha" type="password" value="" autocomplete="new-password" required maxlength={1024} error={p.error} />
          <button type="submit">Criar conta</button>
        </form>
      </div>
    </PanelPage>,
  );
}

export interface TeamRow {
  id: string;
  email: string;
  role: Member["role"];
  twoFactorOn: boolean;
  lastSignInAt: string | null;
}

const ROLE_ORDER: Member["role"][] = ["OWNER", "ADMIN", "DEVELOPER", "SUPPORT", "VIEWER"];

export function teamPage(p: { member: Member; csrf: string; members: TeamRow[]; error?: string | null; email?: string; invited?: { url: string; email: string; expiresAt: string } | null }): string {
  const canInvite = p.member.role === "OWNER" || p.member.role === "ADMIN";
  return renderDocument(
    <PanelPage title="Equipe" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Equipe</h1>
        {canInvite ? null : <ErrorSummary error={p.error} />}
        <ul>
          {p.members.map((m) => (
            <li key={m.id}>
              <strong>{m.email}</strong>
              <p class="muted">
                {ROLE_NAMES[m.role]} · duas etapas {m.twoFactorOn ? "ativa" : "desativada"} · {m.lastSignInAt ? `última entrada ${when(m.lastSignInAt)}` : "nunca entrou"}
              </p>
            </li>
          ))}
        </ul>
      </div>
      {p.invited ? (
        <div class="card" role="status">
          <h2>Convite criado</h2>
          <p>
            Envie este link para {p.invited.email}. Ele vale uma única vez, até {when(p.invited.expiresAt)}:
          </p>
          <label for="invite-url">Link do convite</label>
          <textarea id="invite-url" readonly rows={3} value={p.invited.url} />
        </div>
      ) : null}
      {canInvite ? (
        <div class="card">
          <h2>Convidar alguém</h2>
          <ErrorSummary error={p.error} field="email" />
          <form method="post" action="/panel/team/invite">
            <Csrf token={p.csrf} />
            <TextField name="email" label="E-mail" type="email" value={p.email ?? ""} required maxlength={254} error={p.error} />
            <label for="f-role">Papel</label>
            <select id="f-role" name="role">
              {ROLE_ORDER.filter((r) => r !== "OWNER" || p.member.role === "OWNER").map((r) => (
                <option key={r} value={r} selected={r === "DEVELOPER"}>
                  {ROLE_NAMES[r]}
                </option>
              ))}
            </select>
            <button type="submit">Criar convite</button>
          </form>
        </div>
      ) : null}
    </PanelPage>,
  );
}

export function forgotPage(p: { csrf: string }): string {
  return renderDocument(
    <PanelPage title="Esqueci a senha">
      <div class="card">
        <h1>Esqueci a senha</h1>
        <p>Informe o seu e-mail. Se houver uma conta com ele, enviaremos um link para criar uma nova senha, válido por uma hora.</p>
        <form method="post" action="/panel/forgot">
          <Csrf token={p.csrf} />
          <TextField name="email" label="E-mail" type="email" value="" autocomplete="username" required maxlength={254} />
          <button type="submit">Enviar link</button>
        </form>
      </div>
    </PanelPage>,
  );
}

export function resetPage(p: { csrf: string; token: string; error?: string | null }): string {
  return renderDocument(
    <PanelPage title="Nova senha">
      <div class="card">
        <h1>Nova senha</h1>
        <p>Escolha uma senha com pelo menos 12 caracteres. Todas as sessões abertas com a senha antiga serão encerradas.</p>
        <ErrorSummary error={p.error} field="password" />
        <form method="post" action={`/panel/reset/${encodeURIComponent(p.token)}`}>
          <Csrf token={p.csrf} />
          <TextField name="password" label="Nova senha" type="password" value="" autocomplete="new-password" required maxlength={1024} error={p.error} />
          <button type="submit">Salvar senha</button>
        </form>
      </div>
    </PanelPage>,
  );
}

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
