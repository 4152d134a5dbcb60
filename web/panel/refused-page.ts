// The page for a core refusal a form cannot fix: another tenant's or an unknown record (404, the same
// page for both), a role that may not act, a read-only account.
import type { Response } from "express";
import { send } from "./panel-kit.ts";
import { messagePage } from "./panel-layout.tsx";

/** A refusal's page: a role that may not act, or an account of no one's (404), told in pt-BR. */
export function refusedPage(res: Response, r: { status: number; code: string; error: string }): void {
  if (r.status === 404) return send(res, 404, messagePage("Não encontrado", "Não há nada com este endereço na sua conta.", { href: "/panel/", text: "Voltar ao painel" }));
  if (r.status === 403 && r.code === "account_locked") return send(res, 403, messagePage("Conta em modo somente leitura", "A sua conta está em modo somente leitura: alterações estão suspensas.", { href: "/panel/settings", text: "Ver configurações" }));
  if (r.status === 403) return send(res, 403, messagePage("Ação não permitida", "O seu papel na equipe não permite esta ação.", { href: "/panel/", text: "Voltar ao painel" }));
  send(res, r.status, messagePage("Algo deu errado", r.error));
}

