// The panel's first page after sign-in: who is signed in, what needs attention (failing webhook
// endpoints, refused gateway credentials, API keys never used) and the last events.
import { renderDocument } from "../ui/layout.tsx";
import { PROVIDER_NAMES, type Provider } from "./gateway-pages.tsx";
import { PanelPage, ROLE_NAMES, type Member, when } from "./panel-layout.tsx";

export interface Attention {
  failingEndpoints: { endpoint: { id: string; url: string; description: string; active: boolean }; failingDeliveries: number; lastFailureAt: string }[];
  refusedGateways: { id: string; name: string; provider: Provider; credentialsRefusedAt: string }[];
  unusedKeys: { id: string; name: string; hint: string; scope: string; createdAt: string }[];
  recentEvents: { id: string; type: string; createdAt: string }[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function AttentionCard({ a }: { a: Attention }) {
  const nothing = a.failingEndpoints.length + a.refusedGateways.length + a.unusedKeys.length === 0;
  return (
    <section class="card" aria-labelledby="attention">
      <h2 id="attention">Precisa de atenção</h2>
      {nothing ? <p>Nada pendente: webhooks entregando, gateways aceitando as credenciais e todas as chaves em uso.</p> : null}
      {a.failingEndpoints.length ? (
        <>
          <h3>Webhooks com falhas</h3>
          <ul>
            {a.failingEndpoints.map((f) => (
              <li key={f.endpoint.id}>
                <a href={`/panel/webhooks/${encodeURIComponent(f.endpoint.id)}`}>{f.endpoint.description || f.endpoint.url}</a>
                <p class="muted">
                  {plural(f.failingDeliveries, "entrega com falha", "entregas com falha")} nos últimos 7 dias · a mais recente de {when(f.lastFailureAt)}
                  {f.endpoint.active ? "" : " · desativado"}
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {a.refusedGateways.length ? (
        <>
          <h3>Gateways com credenciais recusadas</h3>
          <ul>
            {a.refusedGateways.map((g) => (
              <li key={g.id}>
                <a href={`/panel/gateways/${encodeURIComponent(g.id)}`}>{g.name || g.id}</a>
                <p class="muted">
                  {PROVIDER_NAMES[g.provider]} recusou as credenciais em {when(g.credentialsRefusedAt)}: cadastre novas credenciais.
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {a.unusedKeys.length ? (
        <>
          <h3>Chaves de API nunca usadas</h3>
          <ul>
            {a.unusedKeys.map((k) => (
              <li key={k.id}>
                <a href="/panel/api-keys">{k.name || k.hint}</a>
                <p class="muted">
                  {k.hint} · {k.scope === "WRITE" ? "escrita" : "leitura"} · criada em {when(k.createdAt)}. Revogue-a se não for usada.
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export function homePage(p: { member: Member; csrf: string; attention: Attention }): string {
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
      <AttentionCard a={p.attention} />
      <section class="card" aria-labelledby="events">
        <h2 id="events">Últimos eventos</h2>
        {p.attention.recentEvents.length ? (
          <ul>
            {p.attention.recentEvents.map((e) => (
              <li key={e.id}>
                <code>{e.type}</code> <span class="muted">· {when(e.createdAt)} · {e.id}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>Nenhum evento ainda.</p>
        )}
      </section>
    </PanelPage>,
  );
}
