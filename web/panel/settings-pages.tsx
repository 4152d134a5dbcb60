// Settings: the company profile the hosted pages show, the customer e-mail settings and alarm contacts,
// the account's mode (read-only is shown, never switched here) and, for a sandbox, its clock.
import { renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";
import { Csrf, ErrorSummary, PanelPage, type Member, when } from "./panel-layout.tsx";

export interface TenantSettings {
  id: string;
  name: string;
  mode: "LIVE" | "SANDBOX";
  readOnly: boolean;
  clockAt: string | null;
  legalName: string | null;
  cnpj: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  address: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
  contactEmails: string[];
  emailSettings: { senderName: string; senderNameIsDefault: boolean; replyTo: string | null; customerEmailsOff: string[] };
}

export type ProfileForm = Record<(typeof PROFILE_FIELDS)[number][0], string>;

export const PROFILE_FIELDS = [
  ["legalName", "Razão social", "text"],
  ["cnpj", "CNPJ", "text"],
  ["supportEmail", "E-mail de atendimento", "email"],
  ["supportPhone", "Telefone de atendimento", "tel"],
  ["address", "Endereço", "text"],
  ["termsUrl", "Termos de uso (endereço)", "url"],
  ["privacyUrl", "Política de privacidade (endereço)", "url"],
] as const;

/** The customer e-mails a vendor may turn off (core/emails/templates), named for a reader. */
export const CUSTOMER_EMAILS: [string, string][] = [
  ["receipt", "Recibo de pagamento"],
  ["pix_charge_issued", "Cobrança Pix emitida"],
  ["payment_declined", "Pagamento recusado"],
  ["trial_ending", "Fim do período de teste em 3 dias"],
  ["subscription_suspended", "Assinatura suspensa"],
  ["subscription_canceled", "Assinatura cancelada"],
  ["refund_issued", "Reembolso feito"],
];

export interface ClockSummary {
  from: string;
  to: string;
  steps: number;
  renewed: number;
  chargeFailed: number;
  pastDue: number;
  suspended: number;
  pixIssued: number;
  canceled: number;
  unknown: number;
  chargebacks: number;
  refundsSettled: number;
  webhookAttempts: number;
  held: number;
  errors: number;
  trialReminders: number;
}

const SUMMARY_NAMES: [keyof ClockSummary, string][] = [
  ["steps", "Paradas do relógio"],
  ["renewed", "Faturas pagas"],
  ["chargeFailed", "Cobranças recusadas"],
  ["pastDue", "Assinaturas em atraso"],
  ["suspended", "Assinaturas suspensas"],
  ["pixIssued", "Pix de renovação emitidos"],
  ["canceled", "Cancelamentos"],
  ["unknown", "Cobranças sem resposta do gateway"],
  ["chargebacks", "Contestações"],
  ["refundsSettled", "Reembolsos concluídos"],
  ["webhookAttempts", "Tentativas de webhook"],
  ["trialReminders", "Avisos de fim de teste"],
  ["held", "Esperadas de outro processo"],
  ["errors", "Falhas (serão repetidas)"],
];

export const profileOf = (t: TenantSettings): ProfileForm =>
  Object.fromEntries(PROFILE_FIELDS.map(([k]) => [k, t[k] ?? ""])) as ProfileForm;

export interface SettingsExtra {
  status?: number;
  notice?: string | null;
  /** The form a refusal is about, its message and field, and what was typed. */
  profile?: { values: ProfileForm; error: string; field?: string };
  email?: { error: string };
  contacts?: { values: string; error: string };
  clock?: { error?: string; summary?: ClockSummary };
}

const canAdmin = (m: Member) => m.role === "OWNER" || m.role === "ADMIN";
const canWrite = (m: Member) => m.role !== "VIEWER";

export function settingsPage(p: { member: Member; csrf: string; tenant: TenantSettings } & SettingsExtra): string {
  const t = p.tenant;
  const admin = canAdmin(p.member);
  const values = p.profile?.values ?? profileOf(t);
  const off = new Set(t.emailSettings.customerEmailsOff);
  return renderDocument(
    <PanelPage title="Configurações" member={p.member} csrf={p.csrf}>
      {p.notice ? (
        <div class="card" role="status">
          <p>{p.notice}</p>
        </div>
      ) : null}
      <div class="card">
        <h1>Configurações</h1>
        <dl class="sum">
          <div class="sum-row">
            <dt>Modo</dt>
            <dd>{t.mode === "SANDBOX" ? "Sandbox (testes)" : "Produção"}</dd>
          </div>
          <div class="sum-row">
            <dt>Somente leitura</dt>
            <dd>{t.readOnly ? "Ativo: alterações suspensas" : "Desativado"}</dd>
          </div>
        </dl>
        <p class="muted">O modo somente leitura é definido pela operação do serviço; fale com o suporte para mudá-lo.</p>
      </div>

      <div class="card">
        <h2>Perfil da empresa</h2>
        <p class="muted">Aparece no rodapé das páginas de pagamento.{admin ? "" : " Só proprietários e administradores alteram."}</p>
        {admin ? (
          <form method="post" action="/panel/settings/profile">
            <Csrf token={p.csrf} />
            <ErrorSummary error={p.profile?.error} field={p.profile?.field} />
            {PROFILE_FIELDS.map(([k, label, type]) => (
              <TextField
                key={k}
                name={k}
                label={label}
                type={type}
                value={values[k]}
                maxlength={k === "address" ? 300 : k.endsWith("Url") ? 500 : 254}
                error={p.profile?.field === k ? p.profile.error : null}
              />
            ))}
            <button type="submit">Salvar perfil</button>
          </form>
        ) : (
          <dl class="sum">
            {PROFILE_FIELDS.map(([k, label]) => (
              <div class="sum-row" key={k}>
                <dt>{label}</dt>
                <dd>{t[k] ?? "—"}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>

      <div class="card">
        <h2>E-mails aos clientes</h2>
        {admin ? (
          <form method="post" action="/panel/settings/email">
            <Csrf token={p.csrf} />
            <ErrorSummary error={p.email?.error} />
            <TextField name="senderName" label="Nome do remetente" value={t.emailSettings.senderNameIsDefault ? "" : t.emailSettings.senderName} placeholder={t.name} maxlength={100} />
            <TextField name="replyTo" label="Responder para (e-mail)" type="email" value={t.emailSettings.replyTo ?? ""} maxlength={254} />
            <fieldset>
              <legend>E-mails enviados</legend>
              {CUSTOMER_EMAILS.map(([key, label]) => (
                <label class="choice" key={key}>
                  <input type="checkbox" name={`on_${key}`} value="1" checked={!off.has(key)} /> {label}
                </label>
              ))}
            </fieldset>
            <button type="submit">Salvar e-mails</button>
          </form>
        ) : (
          <p>
            Remetente: {t.emailSettings.senderName}
            {t.emailSettings.replyTo ? ` · responder para ${t.emailSettings.replyTo}` : ""}
          </p>
        )}
      </div>

      <div class="card">
        <h2>Contatos para alertas</h2>
        <p class="muted">Para onde vão os alertas da equipe (webhook falhando, credenciais recusadas).</p>
        {admin ? (
          <form method="post" action="/panel/settings/contacts">
            <Csrf token={p.csrf} />
            <ErrorSummary error={p.contacts?.error} field="contacts" />
            <label for="f-contacts">E-mails, um por linha (até 10)</label>
            <textarea id="f-contacts" name="contacts" rows={4} value={p.contacts?.values ?? t.contactEmails.join("\n")} />
            <button type="submit">Salvar contatos</button>
          </form>
        ) : (
          <p>{t.contactEmails.join(", ") || "Nenhum contato."}</p>
        )}
      </div>

      {t.mode === "SANDBOX" ? (
        <div class="card">
          <h2>Relógio do sandbox</h2>
          <p>
            O relógio desta conta está em <strong>{t.clockAt ? when(t.clockAt) : "hora real"}</strong> (horário de Brasília).
          </p>
          {p.clock?.summary ? <ClockResult summary={p.clock.summary} /> : null}
          {canWrite(p.member) ? (
            <>
              <ErrorSummary error={p.clock?.error} />
              <form method="post" action="/panel/settings/clock">
                <Csrf token={p.csrf} />
                <input type="hidden" name="how" value="by" />
                <div class="row">
                  <div>
                    <label for="f-amount">Avançar</label>
                    <input id="f-amount" name="amount" type="number" min={1} max={3650} value="1" required />
                  </div>
                  <div>
                    <label for="f-unit">Unidade</label>
                    <select id="f-unit" name="unit">
                      <option value="hours">horas</option>
                      <option value="days" selected>
                        dias
                      </option>
                      <option value="weeks">semanas</option>
                      <option value="months">meses</option>
                    </select>
                  </div>
                </div>
                <button type="submit">Avançar o relógio</button>
              </form>
              <form method="post" action="/panel/settings/clock">
                <Csrf token={p.csrf} />
                <input type="hidden" name="how" value="to" />
                <label for="f-to">Ou até a data (horário de Brasília)</label>
                <input id="f-to" name="to" type="datetime-local" required />
                <button type="submit">Levar o relógio até a data</button>
              </form>
            </>
          ) : null}
        </div>
      ) : null}
    </PanelPage>,
  );
}

function ClockResult({ summary }: { summary: ClockSummary }) {
  return (
    <div role="status">
      <p>
        Relógio movido de {when(summary.from)} para {when(summary.to)}.
      </p>
      <dl class="sum">
        {SUMMARY_NAMES.map(([k, label]) => (
          <div class="sum-row" key={k}>
            <dt>{label}</dt>
            <dd>{summary[k]}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
