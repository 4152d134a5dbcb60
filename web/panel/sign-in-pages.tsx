// The pages before sign-in: entering (password, then the two-factor code), accepting an invitation,
// and choosing a new password by a reset link.
import { renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";
import { Csrf, ErrorSummary, PanelPage } from "./panel-layout.tsx";

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

