// The team: who is in it, with which role, and the invitation form for owners and admins.
import { renderDocument } from "../ui/layout.tsx";
import { TextField } from "../ui/text-field.tsx";
import { Csrf, ErrorSummary, PanelPage, ROLE_NAMES, type Member, when } from "./panel-layout.tsx";

export interface TeamRow {
  id: string;
  email: string;
  role: Member["role"];
  twoFactorOn: boolean;
  lastSignInAt: string | null;
}

const ROLE_ORDER: Member["role"][] = ["OWNER", "ADMIN", "DEVELOPER", "SUPPORT", "VIEWER"];

/** Owners manage anyone but themself; admins anyone but themself and the owners. */
function canManage(me: Member, row: TeamRow): boolean {
  if (row.id === me.id) return false;
  if (me.role === "OWNER") return true;
  return me.role === "ADMIN" && row.role !== "OWNER";
}

/** Change the role, or remove (the checkbox is the confirmation, so it works without JavaScript). */
function MemberForms({ member, row, csrf }: { member: Member; row: TeamRow; csrf: string }) {
  const roles = ROLE_ORDER.filter((r) => r !== "OWNER" || member.role === "OWNER");
  return (
    <div class="member-actions">
      <form method="post" action={`/panel/team/${encodeURIComponent(row.id)}/role`}>
        <Csrf token={csrf} />
        <label for={`role-${row.id}`}>Papel de {row.email}</label>
        <select id={`role-${row.id}`} name="role">
          {roles.map((r) => (
            <option key={r} value={r} selected={r === row.role}>
              {ROLE_NAMES[r]}
            </option>
          ))}
        </select>
        <button type="submit">Alterar papel</button>
      </form>
      <form method="post" action={`/panel/team/${encodeURIComponent(row.id)}/remove`}>
        <Csrf token={csrf} />
        <input type="checkbox" id={`confirm-${row.id}`} name="confirm" value="yes" required />
        <label for={`confirm-${row.id}`}>Confirmo a remoção de {row.email} da equipe</label>
        <button type="submit">Remover</button>
      </form>
    </div>
  );
}

export function teamPage(p: {
  member: Member;
  csrf: string;
  members: TeamRow[];
  error?: string | null;
  notice?: string | null;
  email?: string;
  invited?: { url: string; email: string; expiresAt: string } | null;
}): string {
  const canInvite = p.member.role === "OWNER" || p.member.role === "ADMIN";
  return renderDocument(
    <PanelPage title="Equipe" member={p.member} csrf={p.csrf}>
      <div class="card">
        <h1>Equipe</h1>
        {p.notice ? <p role="status">{p.notice}</p> : null}
        {canInvite && p.email !== undefined ? null : <ErrorSummary error={p.error} />}
        <ul>
          {p.members.map((m) => (
            <li key={m.id}>
              <strong>{m.email}</strong>
              <p class="muted">
                {ROLE_NAMES[m.role]} · duas etapas {m.twoFactorOn ? "ativa" : "desativada"} · {m.lastSignInAt ? `última entrada ${when(m.lastSignInAt)}` : "nunca entrou"}
              </p>
              {canManage(p.member, m) ? <MemberForms member={p.member} row={m} csrf={p.csrf} /> : null}
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

