// Gateways: the tenant's accounts (masked hints only), a provider's connect form, and one account's page
// with its notice URL, the events to enable at the provider, new credentials and the default switch.
// Credential inputs are write-only: they are never filled back, not even after a refusal.
import { renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";
import { Csrf, ErrorSummary, PanelPage, type Member, when } from "./panel-layout.tsx";

export type Provider = "SANDBOX" | "STRIPE" | "PAGARME" | "MERCADOPAGO";

export interface GatewayAccountView {
  id: string;
  provider: Provider;
  name: string;
  isDefault: boolean;
  credentialHints: Record<string, string>;
  credentialsUpdatedAt: string | null;
  webhookUrl: string | null;
  createdAt: string;
}

export interface ProviderSetupView {
  provider: Provider;
  noticeEvents: string[];
  noticeUrlHasToken: boolean;
  credentialFields: { name: string; secret: boolean; required: boolean; shape: string }[];
}

export interface GatewaySetupView {
  baseUrlOverrideAllowed: boolean;
  providers: ProviderSetupView[];
}

export const PROVIDER_NAMES: Record<Provider, string> = { SANDBOX: "Sandbox", STRIPE: "Stripe", PAGARME: "Pagar.me", MERCADOPAGO: "Mercado Pago" };

/** The providers a member connects, in the path's spelling. */
export const CONNECTABLE: Record<string, Provider> = { stripe: "STRIPE", pagarme: "PAGARME", mercadopago: "MERCADOPAGO" };

const FIELD_NAMES: Record<string, string> = {
  secretKey: "Chave secreta",
  publishableKey: "Chave publicável",
  publicKey: "Chave pública",
  accessToken: "Access token",
  webhookSecret: "Segredo de assinatura dos avisos",
  webhookToken: "Token do endereço de avisos",
};
const fieldName = (name: string) => FIELD_NAMES[name] ?? name;

/** Where, at each provider, the notice URL and its events are set (docs/guides/gateways/). */
const WHERE_AT_PROVIDER: Partial<Record<Provider, string>> = {
  STRIPE: "No Stripe: Desenvolvedores › Webhooks › Adicionar endpoint. Depois copie o segredo de assinatura (whsec_…) e informe-o abaixo.",
  PAGARME: "No Pagar.me: Configurações › Webhooks. Cadastre o endereço com o token incluído e mantenha-o em segredo.",
  MERCADOPAGO: "No Mercado Pago: Suas integrações › sua aplicação › Webhooks › Configurar notificações. Depois copie a assinatura secreta e informe-a abaixo.",
};

const canManage = (m: Member) => m.role === "OWNER" || m.role === "ADMIN" || m.role === "DEVELOPER";

function Hints({ hints }: { hints: Record<string, string> }) {
  const entries = Object.entries(hints);
  if (!entries.length) return <p class="muted">Sem credenciais (cartões de teste do sandbox).</p>;
  return (
    <dl class="sum">
      {entries.map(([k, v]) => (
        <div class="sum-row" key={k}>
          <dt>{fieldName(k)}</dt>
          <dd>
            <code>{v}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function gatewaysPage(p: { member: Member; csrf: string; accounts: GatewayAccountView[]; setup: GatewaySetupView }): string {
  const sandbox = p.member.tenantMode === "SANDBOX";
  return renderDocument(
    <PanelPage title="Gateways" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Gateways</h1>
        <p class="muted">
          {sandbox
            ? "Conta sandbox: as ofertas cobram pelo gateway sandbox (cartões de teste, nenhum dinheiro se move). Você pode conectar contas de teste dos provedores."
            : "As contas de pagamento que cobram as suas ofertas. As credenciais ficam cifradas; aqui só aparecem dicas mascaradas."}
        </p>
        {p.accounts.length ? (
          <ul>
            {p.accounts.map((a) => (
              <li key={a.id}>
                <a href={`/panel/gateways/${a.id}`}>{a.name}</a> · {PROVIDER_NAMES[a.provider]}
                {a.isDefault ? <span class="badge"> padrão</span> : null}
                <p class="muted">{Object.values(a.credentialHints).join(" · ") || "sem credenciais"}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p>Nenhuma conta ainda.</p>
        )}
      </div>
      {canManage(p.member) ? (
        <div class="card">
          <h2>Conectar um provedor</h2>
          <ul>
            {Object.entries(CONNECTABLE).map(([slug, provider]) => (
              <li key={slug}>
                <a href={`/panel/gateways/connect/${slug}`}>Conectar {PROVIDER_NAMES[provider]}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </PanelPage>,
  );
}

function CredentialInputs({ fields, connecting }: { fields: ProviderSetupView["credentialFields"]; connecting: boolean }) {
  return (
    <>
      {fields.map((f) => (
        <div key={f.name}>
          <TextField
            name={`cred_${f.name}`}
            label={`${fieldName(f.name)}${connecting && !f.required ? " (opcional)" : ""}`}
            type={f.secret ? "password" : "text"}
            autocomplete="off"
            value=""
            maxlength={4096}
            required={connecting && f.required}
          />
          <p class="muted">{f.shape}</p>
        </div>
      ))}
    </>
  );
}

export function connectPage(p: { member: Member; csrf: string; slug: string; setup: ProviderSetupView; baseUrlOverrideAllowed: boolean; name?: string; error?: string | null; errorField?: string }): string {
  const title = `Conectar ${PROVIDER_NAMES[p.setup.provider]}`;
  return renderDocument(
    <PanelPage title={title} member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>{title}</h1>
        <p class="muted">As credenciais são verificadas agora com o provedor e guardadas cifradas. Elas não são mostradas de novo: só dicas mascaradas.</p>
        <ErrorSummary error={p.error} field={p.errorField} />
        <form method="post" action={`/panel/gateways/connect/${p.slug}`} autocomplete="off">
          <Csrf token={p.csrf} />
          <TextField name="name" label="Nome da conta" value={p.name ?? ""} required maxlength={200} error={p.errorField === "name" ? p.error : null} />
          <CredentialInputs fields={p.setup.credentialFields} connecting />
          {p.baseUrlOverrideAllowed ? (
            <TextField name="apiBaseUrl" label="Endereço da API (só testes, loopback)" type="url" value="" maxlength={2048} />
          ) : null}
          <button type="submit">Verificar e conectar</button>
        </form>
      </div>
      <p>
        <a href="/panel/gateways">Voltar aos gateways</a>
      </p>
    </PanelPage>,
  );
}

export function gatewayPage(p: {
  member: Member;
  csrf: string;
  account: GatewayAccountView;
  setup: ProviderSetupView | undefined;
  notice?: string | null;
  error?: string | null;
}): string {
  const a = p.account;
  const manage = canManage(p.member);
  const events = p.setup?.noticeEvents ?? [];
  return renderDocument(
    <PanelPage title={a.name} member={p.member} csrf={p.csrf}>
      {p.notice ? (
        <div class="card" role="status">
          <p>{p.notice}</p>
        </div>
      ) : null}
      <div class="card">
        <h1>{a.name}</h1>
        <p class="muted">
          {PROVIDER_NAMES[a.provider]} · {a.isDefault ? `conta padrão do ${PROVIDER_NAMES[a.provider]}` : "não é a padrão"} · criada em {when(a.createdAt)}
          {a.credentialsUpdatedAt ? ` · credenciais de ${when(a.credentialsUpdatedAt)}` : ""}
        </p>
        <h2>Credenciais</h2>
        <Hints hints={a.credentialHints} />
        {manage && !a.isDefault ? (
          <form method="post" action={`/panel/gateways/${a.id}/default`}>
            <Csrf token={p.csrf} />
            <button type="submit">Tornar padrão do {PROVIDER_NAMES[a.provider]}</button>
          </form>
        ) : null}
      </div>
      {a.webhookUrl ? (
        <div class="card">
          <h2>Avisos do provedor</h2>
          <p>Cadastre este endereço no {PROVIDER_NAMES[a.provider]} para receber os avisos de pagamento:</p>
          <label for="notice-url">Endereço de avisos</label>
          <textarea id="notice-url" readonly rows={3} value={a.webhookUrl} />
          {p.setup?.noticeUrlHasToken ? (
            <p class="muted">{manage ? "O endereço leva um token secreto: não o compartilhe." : "O token do endereço aparece só para quem gerencia gateways."}</p>
          ) : null}
          {WHERE_AT_PROVIDER[a.provider] ? <p>{WHERE_AT_PROVIDER[a.provider]}</p> : null}
          {events.length ? (
            <>
              <p>Eventos a ativar:</p>
              {/* Long event names wrap on a narrow screen. */}
              <ul style={{ overflowWrap: "anywhere" }}>
                {events.map((e) => (
                  <li key={e}>
                    <code>{e}</code>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
      {manage && p.setup?.credentialFields.length ? (
        <div class="card">
          <h2>Trocar credenciais</h2>
          <p class="muted">Preencha só os campos que mudam; os outros continuam como estão. Tudo é verificado com o provedor antes de ser guardado.</p>
          <ErrorSummary error={p.error} />
          <form method="post" action={`/panel/gateways/${a.id}/credentials`} autocomplete="off">
            <Csrf token={p.csrf} />
            <CredentialInputs fields={p.setup.credentialFields} connecting={false} />
            <button type="submit">Verificar e salvar</button>
          </form>
        </div>
      ) : null}
      <p>
        <a href="/panel/gateways">Voltar aos gateways</a>
      </p>
    </PanelPage>,
  );
}
