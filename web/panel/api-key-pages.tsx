// API keys: the list (name, hint, scope, who made it and when, last use, state), the create form,
// the new key shown once (readonly field, copy button by our script), and the revoke and roll steps.
import { renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";
import { PANEL_COPY_PATH } from "./copy-script.ts";
import { Csrf, ErrorSummary, PanelPage, type Member, when } from "./panel-layout.tsx";

export interface ApiKeyRow {
  id: string;
  name: string;
  hint: string;
  scope: "READ" | "WRITE";
  createdAt: string;
  createdByEmail: string | null;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface NewKey {
  id: string;
  key: string;
  scope: "READ" | "WRITE";
  name: string;
  hint: string;
  rolledExpiresAt?: string;
}

const SCOPE_NAMES = { READ: "Leitura", WRITE: "Escrita" } as const;

/** Roll overlaps offered, in hours (the core accepts 0 to 168). */
export const OVERLAPS: [number, string][] = [
  [0, "Nenhuma: a chave antiga para agora"],
  [1, "1 hora"],
  [24, "24 horas"],
  [72, "3 dias"],
  [168, "7 dias"],
];

/** Whether the member's role manages keys (the core decides; this only hides forms they cannot use). */
export const managesKeys = (m: Member) => m.role === "OWNER" || m.role === "ADMIN" || m.role === "DEVELOPER";

const keyTitle = (k: { name: string; hint: string }) => k.name || `Chave ${k.hint}`;

function state(k: ApiKeyRow): string {
  if (k.revokedAt) return `revogada em ${when(k.revokedAt)}`;
  if (k.expiresAt) return `substituída; aceita até ${when(k.expiresAt)}`;
  return "ativa";
}

export function apiKeysPage(p: { member: Member; csrf: string; keys: ApiKeyRow[]; error?: string | null; name?: string; scope?: string; notice?: string | null }): string {
  const manage = managesKeys(p.member);
  return renderDocument(
    <PanelPage title="Chaves de API" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Chaves de API</h1>
        {p.notice ? <p role="status">{p.notice}</p> : null}
        {manage ? null : <ErrorSummary error={p.error} />}
        {p.keys.length ? null : <p>Nenhuma chave ainda.</p>}
        <ul>
          {p.keys.map((k) => (
            <li key={k.id}>
              <strong>{keyTitle(k)}</strong> <code>{k.hint}</code> · {SCOPE_NAMES[k.scope]} · {state(k)}
              <p class="muted">
                Criada por {k.createdByEmail ?? "operador"} em {when(k.createdAt)} · {k.lastUsedAt ? `último uso ${when(k.lastUsedAt)}` : "nunca usada"}
              </p>
              {manage && !k.revokedAt && !k.expiresAt ? (
                <p>
                  <a href={`/panel/api-keys/${encodeURIComponent(k.id)}/roll`}>Substituir {keyTitle(k)}</a> ·{" "}
                  <a href={`/panel/api-keys/${encodeURIComponent(k.id)}/revoke`}>Revogar {keyTitle(k)}</a>
                </p>
              ) : manage && !k.revokedAt ? (
                <p>
                  <a href={`/panel/api-keys/${encodeURIComponent(k.id)}/revoke`}>Revogar {keyTitle(k)} agora</a>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
      {manage ? (
        <div class="card">
          <h2>Criar uma chave</h2>
          <ErrorSummary error={p.error} field="name" />
          <form method="post" action="/panel/api-keys">
            <Csrf token={p.csrf} />
            <TextField name="name" label="Nome (por exemplo, servidor de produção)" value={p.name ?? ""} required maxlength={100} error={p.error} />
            <fieldset>
              <legend>Permissão</legend>
              <label class="choice">
                <input type="radio" name="scope" value="READ" checked={p.scope !== "WRITE"} /> Leitura: só consulta
              </label>
              <label class="choice">
                <input type="radio" name="scope" value="WRITE" checked={p.scope === "WRITE"} /> Escrita: consulta e ações (cobranças, cancelamentos)
              </label>
            </fieldset>
            <button type="submit">Criar chave</button>
          </form>
        </div>
      ) : null}
    </PanelPage>,
  );
}

/** The clear key, once: a readonly field to select, and a copy button when JavaScript runs. */
export function newKeyPage(p: { member: Member; csrf: string; created: NewKey; rolled?: boolean }): string {
  const k = p.created;
  return renderDocument(
    <PanelPage title={p.rolled ? "Chave substituída" : "Chave criada"} member={p.member} csrf={p.csrf}>
      <div class="card" role="status">
        <h1>{p.rolled ? "Chave substituída" : "Chave criada"}</h1>
        <p>
          <strong>{keyTitle(k)}</strong> · {SCOPE_NAMES[k.scope]}
        </p>
        <p>Copie a chave agora e guarde-a num lugar seguro: ela não será mostrada de novo.</p>
        <label for="new-key">Chave</label>
        <input id="new-key" type="text" readonly value={k.key} />
        <button type="button" data-copy="new-key" hidden>
          Copiar chave
        </button>
        {k.rolledExpiresAt ? <p>A chave antiga continua aceita até {when(k.rolledExpiresAt)}; depois disso, recebe 401.</p> : null}
        <p>
          <a href="/panel/api-keys">Voltar às chaves</a>
        </p>
      </div>
      <script src={PANEL_COPY_PATH} defer></script>
    </PanelPage>,
  );
}

export function revokePage(p: { member: Member; csrf: string; key: ApiKeyRow; error?: string | null }): string {
  const k = p.key;
  return renderDocument(
    <PanelPage title="Revogar chave" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Revogar {keyTitle(k)}?</h1>
        <ErrorSummary error={p.error} />
        <p>
          A chave <code>{k.hint}</code> ({SCOPE_NAMES[k.scope]}) passa a receber 401 na próxima chamada. Isto não pode ser desfeito: quem a usa precisará de uma chave nova.
        </p>
        <form method="post" action={`/panel/api-keys/${encodeURIComponent(k.id)}/revoke`}>
          <Csrf token={p.csrf} />
          <button type="submit">Revogar chave</button>
        </form>
        <p>
          <a href="/panel/api-keys">Cancelar</a>
        </p>
      </div>
    </PanelPage>,
  );
}

export function rollPage(p: { member: Member; csrf: string; key: ApiKeyRow; error?: string | null }): string {
  const k = p.key;
  return renderDocument(
    <PanelPage title="Substituir chave" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Substituir {keyTitle(k)}</h1>
        <ErrorSummary error={p.error} field="overlap" />
        <p>
          Criamos uma chave nova com o mesmo nome e a mesma permissão. A chave <code>{k.hint}</code> continua aceita durante a sobreposição escolhida, para dar tempo de trocar a chave nos seus sistemas.
        </p>
        <form method="post" action={`/panel/api-keys/${encodeURIComponent(k.id)}/roll`}>
          <Csrf token={p.csrf} />
          <label for="f-overlap">Sobreposição</label>
          <select id="f-overlap" name="overlapHours">
            {OVERLAPS.map(([hours, text]) => (
              <option key={hours} value={String(hours)} selected={hours === 24}>
                {text}
              </option>
            ))}
          </select>
          <button type="submit">Criar a chave nova</button>
        </form>
        <p>
          <a href="/panel/api-keys">Cancelar</a>
        </p>
      </div>
    </PanelPage>,
  );
}
