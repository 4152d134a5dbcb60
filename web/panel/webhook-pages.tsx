// Webhooks: the tenant's endpoints (list and add), one endpoint (edit, enable/disable, delete, the
// signing secret on demand, a test event, resends) and its delivery log with the payload as sent.
// Only owners, admins and developers see the forms; the core refuses anyone else who posts one.
import { EVENT_TYPES } from "../../core/events/event-types.ts";
import { renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";
import { Csrf, ErrorSummary, PanelPage, type Member, when } from "./panel-layout.tsx";

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  events: string[];
  active: boolean;
  createdAt: string;
  previousSecretExpiresAt?: string | null;
}

export interface DeliveryRow {
  id: string;
  status: "PENDING" | "DELIVERED" | "EXHAUSTED" | "FAILED";
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  payload: string;
  event: { id: string; type: string; createdAt: string };
  attempts: { attemptNo: number; startedAt: string; statusCode: number | null; latencyMs: number | null; error: string | null }[];
}

/** What the add and edit forms send back when refused, so the typed values are kept. */
export interface EndpointForm {
  url: string;
  description: string;
  allEvents: boolean;
  events: string[];
  enabled?: boolean;
}

export const canManageWebhooks = (m: Member) => m.role === "OWNER" || m.role === "ADMIN" || m.role === "DEVELOPER";

const STATUS_NAMES: Record<DeliveryRow["status"], string> = {
  PENDING: "Pendente",
  DELIVERED: "Entregue",
  EXHAUSTED: "Tentativas esgotadas",
  FAILED: "Falhou (URL inválida)",
};

const ERROR_NAMES: Record<string, string> = {
  http_status: "resposta HTTP fora de 2xx",
  connection_refused: "conexão recusada",
  timeout: "sem resposta em 10 s",
  tls_error: "erro de TLS",
  dns_error: "nome não resolvido",
  address_not_allowed: "endereço não permitido",
  connection_error: "erro de conexão",
  invalid_url: "URL inválida",
};

/** A long URL or id wraps instead of widening the page at 360 px. */
const WRAP = { wordBreak: "break-all" } as const;

const eventsText = (events: string[]) => (events.length === 0 ? "Todos os eventos" : events.join(", "));

/** "HTTP 500", "timeout", ... for one attempt or the delivery's last one. */
export function responseText(statusCode: number | null, error: string | null): string {
  if (statusCode !== null) return `HTTP ${statusCode}`;
  return error ? (ERROR_NAMES[error] ?? error) : "—";
}

function EndpointFields({ form, idPrefix }: { form: EndpointForm; idPrefix: string }) {
  return (
    <>
      <TextField name="url" label="URL do endpoint" value={form.url} required maxlength={2048} placeholder="https://exemplo.com.br/webhooks" />
      <label for={`${idPrefix}-description`}>Descrição (opcional)</label>
      <textarea id={`${idPrefix}-description`} name="description" rows={2} maxlength={500} value={form.description} />
      <fieldset>
        <legend>Eventos</legend>
        <label class="choice">
          <input type="radio" name="scope" value="all" checked={form.allEvents} /> Todos os eventos
        </label>
        <label class="choice">
          <input type="radio" name="scope" value="chosen" checked={!form.allEvents} /> Só os marcados abaixo
        </label>
        {EVENT_TYPES.map((type) => (
          <label class="choice" key={type}>
            <input type="checkbox" name="events" value={type} checked={form.events.includes(type)} /> <code style={{ ...WRAP, minWidth: 0 }}>{type}</code>
          </label>
        ))}
      </fieldset>
    </>
  );
}

export function webhooksPage(p: { member: Member; csrf: string; endpoints: EndpointRow[]; error?: string | null; form?: EndpointForm }): string {
  const manage = canManageWebhooks(p.member);
  const form = p.form ?? { url: "", description: "", allEvents: true, events: [], enabled: true };
  return renderDocument(
    <PanelPage title="Webhooks" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Webhooks</h1>
        <p class="muted">Endereços que recebem os eventos da sua conta, assinados com o segredo de cada endpoint.</p>
        {p.endpoints.length === 0 ? <p>Nenhum endpoint cadastrado.</p> : null}
        <ul>
          {p.endpoints.map((e) => (
            <li key={e.id}>
              <a href={`/panel/webhooks/${e.id}`} style={WRAP}>
                {e.url}
              </a>
              <p class="muted">
                {e.active ? "Ativo" : "Desativado"} · {eventsText(e.events)}
              </p>
              {e.description ? <p class="muted">{e.description}</p> : null}
            </li>
          ))}
        </ul>
      </div>
      {manage ? (
        <div class="card">
          <h2>Adicionar endpoint</h2>
          <ErrorSummary error={p.error} field="url" />
          <form method="post" action="/panel/webhooks">
            <Csrf token={p.csrf} />
            <EndpointFields form={form} idPrefix="new" />
            <label class="choice">
              <input type="checkbox" name="enabled" value="1" checked={form.enabled ?? true} /> Ativo (recebe eventos)
            </label>
            <button type="submit">Adicionar endpoint</button>
          </form>
        </div>
      ) : null}
    </PanelPage>,
  );
}

/** A notice after an action, by key (never echoed from the URL). */
export const NOTICES: Record<string, string> = {
  added: "Endpoint adicionado. Mostre o segredo de assinatura para configurar o seu receptor.",
  saved: "Alterações salvas.",
  enabled: "Endpoint ativado. As entregas retidas seguem agora.",
  disabled: "Endpoint desativado. Nenhuma entrega será feita até reativá-lo; a equipe foi avisada por e-mail.",
  test: "Evento de teste webhook.test enviado. Ele aparece no registro de entregas abaixo.",
  resent: "Entrega reenviada.",
};

export interface SecretShown {
  secret: string;
  previousSecretExpiresAt: string | null;
  rolled: boolean;
}

export function webhookPage(p: {
  member: Member;
  csrf: string;
  endpoint: EndpointRow;
  deliveries: DeliveryRow[];
  olderCursor: string | null;
  notice?: string | null;
  error?: string | null;
  form?: EndpointForm;
  secret?: SecretShown | null;
  resentCount?: number | null;
}): string {
  const e = p.endpoint;
  const manage = canManageWebhooks(p.member);
  const form = p.form ?? { url: e.url, description: e.description, allEvents: e.events.length === 0, events: e.events };
  const action = (path: string) => `/panel/webhooks/${e.id}/${path}`;
  return renderDocument(
    <PanelPage title="Endpoint de webhook" member={p.member} csrf={p.csrf}>
      <div class="card">
        <p class="muted">
          <a href="/panel/webhooks">Webhooks</a>
        </p>
        <h1 style={WRAP}>{e.url}</h1>
        <p class="muted">
          {e.active ? "Ativo" : "Desativado"} · {eventsText(e.events)} · criado em {when(e.createdAt)}
        </p>
        {e.description ? <p>{e.description}</p> : null}
      </div>
      {p.notice ? (
        <div class="card" role="status">
          <p>{p.notice}</p>
        </div>
      ) : null}
      {p.resentCount != null ? (
        <div class="card" role="status">
          <p>{p.resentCount === 0 ? "Nenhuma entrega com falha desde essa data." : `${p.resentCount} entrega(s) com falha reenviada(s).`}</p>
        </div>
      ) : null}
      {p.secret ? (
        <div class="card" role="status">
          <h2>{p.secret.rolled ? "Novo segredo de assinatura" : "Segredo de assinatura"}</h2>
          <label for="secret">Segredo (chave do HMAC de X-Billing-Signature)</label>
          <textarea id="secret" readonly rows={2} value={p.secret.secret} />
          {p.secret.previousSecretExpiresAt ? (
            <p class="muted">O segredo anterior continua assinando (um segundo v1=) até {when(p.secret.previousSecretExpiresAt)}.</p>
          ) : null}
        </div>
      ) : null}
      {manage ? (
        <>
          <ErrorSummary error={p.error} />
          <div class="card">
            <h2>Segredo e teste</h2>
            <form method="post" action={action("secret")}>
              <Csrf token={p.csrf} />
              <button type="submit">Mostrar segredo de assinatura</button>
            </form>
            <form method="post" action={action("roll")}>
              <Csrf token={p.csrf} />
              <button type="submit">Gerar novo segredo (o atual vale por mais 24 h)</button>
            </form>
            <form method="post" action={action("test")}>
              <Csrf token={p.csrf} />
              <button type="submit">Enviar evento de teste</button>
            </form>
          </div>
          <div class="card">
            <h2>Editar</h2>
            <form method="post" action={action("edit")}>
              <Csrf token={p.csrf} />
              <EndpointFields form={form} idPrefix="edit" />
              <button type="submit">Salvar alterações</button>
            </form>
            <form method="post" action={action(e.active ? "disable" : "enable")}>
              <Csrf token={p.csrf} />
              <button type="submit">{e.active ? "Desativar endpoint" : "Ativar endpoint"}</button>
            </form>
            <p>
              <a href={action("delete")}>Excluir endpoint</a>
            </p>
          </div>
          <div class="card">
            <h2>Reenviar falhas</h2>
            <form method="post" action={action("resend-failed")}>
              <Csrf token={p.csrf} />
              <label for="f-since">Eventos com falha desde</label>
              <input id="f-since" name="since" type="date" required />
              <button type="submit">Reenviar entregas com falha</button>
            </form>
          </div>
        </>
      ) : null}
      <div class="card">
        <h2>Entregas</h2>
        {p.deliveries.length === 0 ? <p>Nenhuma entrega ainda.</p> : null}
        <ul class="deliveries">
          {p.deliveries.map((d) => (
            <li key={d.id} id={d.id}>
              <p>
                <strong>{d.event.type}</strong> · <span class="status">{STATUS_NAMES[d.status]}</span>
              </p>
              <p class="muted" style={WRAP}>
                {d.event.id} · {d.attemptCount} tentativa(s) · {responseText(d.lastStatusCode, d.lastError)}
                {d.deliveredAt ? ` · entregue em ${when(d.deliveredAt)}` : d.nextAttemptAt && d.status === "PENDING" ? ` · próxima tentativa ${when(d.nextAttemptAt)}` : ""}
              </p>
              <details>
                <summary>Tentativas e conteúdo enviado</summary>
                <ol class="attempts">
                  {d.attempts.map((a) => (
                    <li key={a.attemptNo}>
                      {when(a.startedAt)} · {responseText(a.statusCode, a.error)}
                      {a.latencyMs !== null ? ` · ${a.latencyMs} ms` : ""}
                    </li>
                  ))}
                </ol>
                <p class="muted">Corpo enviado (assinado em X-Billing-Signature a cada tentativa):</p>
                <pre class="payload" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
                  {d.payload}
                </pre>
              </details>
              {manage ? (
                <form method="post" action={action(`deliveries/${d.id}/resend`)}>
                  <Csrf token={p.csrf} />
                  <button type="submit">Reenviar esta entrega</button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
        {p.olderCursor ? (
          <p>
            <a href={`/panel/webhooks/${e.id}?after=${encodeURIComponent(p.olderCursor)}`}>Entregas mais antigas</a>
          </p>
        ) : null}
      </div>
    </PanelPage>,
  );
}

export function deleteWebhookPage(p: { member: Member; csrf: string; endpoint: EndpointRow }): string {
  return renderDocument(
    <PanelPage title="Excluir endpoint" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Excluir endpoint?</h1>
        <p style={WRAP}>{p.endpoint.url}</p>
        <p>Nenhum evento será mais enviado a ele, e as entregas pendentes não serão feitas. O histórico de entregas continua guardado.</p>
        <form method="post" action={`/panel/webhooks/${p.endpoint.id}/delete`}>
          <Csrf token={p.csrf} />
          <button type="submit">Excluir definitivamente</button>
        </form>
        <p>
          <a href={`/panel/webhooks/${p.endpoint.id}`}>Cancelar</a>
        </p>
      </div>
    </PanelPage>,
  );
}
