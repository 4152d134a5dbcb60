// The audit log: every write in the account (panel, /v1, GraphQL), newest first, filtered by actor,
// action and dates, a page of 50 at a time ("older entries" follows the keyset cursor).
import { renderDocument } from "../ui/layout.tsx";
import { ErrorSummary, PanelPage, type Member, when } from "./panel-layout.tsx";

export interface AuditRow {
  id: string;
  actorKind: "MEMBER" | "API_KEY" | "OPERATOR" | string;
  actor: string;
  action: string;
  recordId: string | null;
  address: string;
  at: string;
}

export interface AuditFilters {
  actor: string;
  action: string;
  /** yyyy-mm-dd, as the date inputs send them. */
  from: string;
  to: string;
}

const KIND_NAMES: Record<string, string> = { MEMBER: "membro", API_KEY: "chave de API", OPERATOR: "operador" };

export function auditPage(p: { member: Member; csrf: string; entries: AuditRow[]; actions: string[]; filters: AuditFilters; next: string | null; error?: string | null }): string {
  const f = p.filters;
  const nextHref = p.next ? `/panel/audit?${new URLSearchParams({ ...f, after: p.next }).toString()}` : null;
  return renderDocument(
    <PanelPage title="Auditoria" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Auditoria</h1>
        <p class="muted">Cada alteração feita na conta, pelo painel, pela API /v1 ou pelo GraphQL: quem, o quê, em qual registro, quando e de qual endereço.</p>
        <ErrorSummary error={p.error} />
        <form method="get" action="/panel/audit">
          <label for="f-actor">Quem (e-mail ou nome da chave)</label>
          <input id="f-actor" name="actor" type="text" value={f.actor} maxlength={200} />
          <label for="f-action">Ação</label>
          <select id="f-action" name="action">
            <option value="">Todas</option>
            {p.actions.map((a) => (
              <option key={a} value={a} selected={a === f.action}>
                {a}
              </option>
            ))}
          </select>
          <label for="f-from">De (data)</label>
          <input id="f-from" name="from" type="date" value={f.from} />
          <label for="f-to">Até (data, inclusive)</label>
          <input id="f-to" name="to" type="date" value={f.to} />
          <button type="submit">Filtrar</button>
        </form>
      </div>
      <div class="card">
        <h2>Registros</h2>
        {p.entries.length ? null : <p>Nenhum registro com esses filtros.</p>}
        <ul>
          {p.entries.map((e) => (
            <li key={e.id}>
              <strong>{e.action}</strong> {e.recordId ? <code>{e.recordId}</code> : null}
              <p class="muted">
                {when(e.at)} · {e.actor} ({KIND_NAMES[e.actorKind] ?? e.actorKind}) · {e.address || "endereço desconhecido"}
              </p>
            </li>
          ))}
        </ul>
        {nextHref ? (
          <p>
            <a href={nextHref}>Registros mais antigos</a>
          </p>
        ) : null}
      </div>
    </PanelPage>,
  );
}
