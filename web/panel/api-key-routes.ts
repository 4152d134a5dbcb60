// API keys: list and create, revoke (after a confirmation page) and roll (with a chosen overlap).
// A new key's clear text is on the answer page only; nothing here keeps it.
import type { Request, Response, Router } from "express";
import { field, refusal, send, wrap, type PanelKit } from "./panel-kit.ts";
import { messagePage, type Member } from "./panel-layout.tsx";
import { apiKeysPage, newKeyPage, revokePage, rollPage, type ApiKeyRow, type NewKey } from "./api-key-pages.tsx";
import { PANEL_COPY_JS, PANEL_COPY_PATH } from "./copy-script.ts";

type KeysData = { me: Member; apiKeys: ApiKeyRow[] };

const notFoundPage = () => messagePage("Chave não encontrada", "Esta chave não existe ou não é da sua conta.", { href: "/panel/api-keys", text: "Voltar às chaves" });

const NOTICES: Record<string, string> = { revoked: "Chave revogada: ela recebe 401 a partir de agora." };

export function apiKeyRoutes(router: Router, kit: PanelKit): void {
  const { call, signedIn } = kit;

  router.get(PANEL_COPY_PATH, (_req, res) => {
    res.status(200).set({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" }).send(PANEL_COPY_JS);
  });

  async function renderKeys(req: Request, res: Response, extra: { status?: number; error?: string | null; name?: string; scope?: string; notice?: string | null } = {}) {
    const s = await signedIn<KeysData>(req, res, "panel-api-keys");
    if (!s) return;
    send(res, extra.status ?? 200, apiKeysPage({ member: s.me, csrf: s.csrf, keys: s.apiKeys, ...extra }));
  }

  /** The signed-in member with one of their tenant's keys, or the 404 page (unknown and foreign ids alike). */
  async function withKey(req: Request, res: Response) {
    const s = await signedIn<KeysData>(req, res, "panel-api-keys");
    if (!s) return null;
    const key = s.apiKeys.find((k) => k.id === String(req.params.id));
    if (!key) {
      send(res, 404, notFoundPage());
      return null;
    }
    return { ...s, key };
  }

  /** A refusal of a key action as the page the member sees. */
  function refused(res: Response, err: unknown): void {
    const r = refusal(err);
    if (!r) throw err;
    if (r.status === 401) return res.redirect(303, "/panel/login");
    if (r.status === 404) return send(res, 404, notFoundPage());
    send(res, r.status, messagePage("Ação recusada", r.error, { href: "/panel/api-keys", text: "Voltar às chaves" }));
  }

  router.get("/panel/api-keys", wrap((req, res) => renderKeys(req, res, { notice: NOTICES[String(req.query.done ?? "")] ?? null })));

  router.post("/panel/api-keys", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    const name = field(req.body, "name");
    const scope = field(req.body, "scope") === "WRITE" ? "WRITE" : "READ";
    try {
      const { createApiKey } = await call<{ createApiKey: NewKey }>(req, "panel-create-api-key", { name, scope }, token);
      const s = await signedIn<{ me: Member }>(req, res);
      if (s) send(res, 200, newKeyPage({ member: s.me, csrf: s.csrf, created: createApiKey }));
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      await renderKeys(req, res, { status: r.status, error: r.error, name, scope });
    }
  }));

  router.get("/panel/api-keys/:id/revoke", wrap(async (req, res) => {
    const s = await withKey(req, res);
    if (s) send(res, 200, revokePage({ member: s.me, csrf: s.csrf, key: s.key }));
  }));

  router.post("/panel/api-keys/:id/revoke", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    try {
      await call(req, "panel-revoke-api-key", { id: String(req.params.id) }, token);
      res.redirect(303, "/panel/api-keys?done=revoked");
    } catch (err) {
      refused(res, err);
    }
  }));

  router.get("/panel/api-keys/:id/roll", wrap(async (req, res) => {
    const s = await withKey(req, res);
    if (s) send(res, 200, rollPage({ member: s.me, csrf: s.csrf, key: s.key }));
  }));

  router.post("/panel/api-keys/:id/roll", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    const hours = /^\d{1,4}$/.test(field(req.body, "overlapHours")) ? Number(field(req.body, "overlapHours")) : -1;
    try {
      const { rollApiKey } = await call<{ rollApiKey: NewKey }>(req, "panel-roll-api-key", { id: String(req.params.id), overlapHours: hours }, token);
      const s = await signedIn<{ me: Member }>(req, res);
      if (s) send(res, 200, newKeyPage({ member: s.me, csrf: s.csrf, created: rollApiKey, rolled: true }));
    } catch (err) {
      refused(res, err);
    }
  }));
}
