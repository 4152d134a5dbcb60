// The panel's first page after sign-in.
import { renderDocument } from "../ui/layout.tsx";
import { PanelPage, ROLE_NAMES, type Member } from "./panel-layout.tsx";

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

