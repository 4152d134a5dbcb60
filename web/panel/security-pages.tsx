// A member's own account: two-factor set-up, its recovery codes, and the list of open sessions.
import { renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";
import { Csrf, ErrorSummary, PanelPage, type Member, when } from "./panel-layout.tsx";

export interface SessionRow {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string;
  address: string;
  current: boolean;
}

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
          <>
            <p>Ativa: ao entrar, pedimos um código do seu aplicativo autenticador.</p>
            {m.twoFactorRequired ? (
              <p class="muted">A sua equipe exige a verificação em duas etapas: ela não pode ser desativada.</p>
            ) : (
              <form method="post" action="/panel/security/two-factor/disable">
                <Csrf token={p.csrf} />
                <TextField name="code" label="Código atual (ou de recuperação) para desativar" value="" autocomplete="one-time-code" required maxlength={64} error={p.error} />
                <button type="submit">Desativar verificação em duas etapas</button>
              </form>
            )}
          </>
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

