// Gateways: list, connect a provider (credentials checked live by the core), an account's page (notice URL,
// events to enable), new credentials and the default switch. The credentials posted go straight to the
// core and are never echoed back, logged or kept in the page.
import type { Request, Response, Router } from "express";
import { field, refusal, send, wrap, type PanelKit } from "./panel-kit.ts";
import type { Member } from "./panel-layout.tsx";
import { refusedPage } from "./refused-page.ts";
import { CONNECTABLE, connectPage, gatewayPage, gatewaysPage, type GatewayAccountView, type GatewaySetupView, type ProviderSetupView } from "./gateway-pages.tsx";

/** The credential fields of a provider's form that were filled in (`cred_<name>`). */
function postedCredentials(body: unknown, setup: ProviderSetupView): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of setup.credentialFields) {
    const value = field(body, `cred_${f.name}`);
    if (value.trim()) out[f.name] = value;
  }
  return out;
}

/** A refusal about the credentials, in the member's words: the provider's reason is already scrubbed of every secret. */
const credentialsMessage = (r: { code: string; error: string }) => (r.code === "gateway_credentials_invalid" ? `O provedor recusou as credenciais: ${r.error}` : r.error);

export function gatewayRoutes(router: Router, kit: PanelKit): void {
  const { call, signedIn } = kit;
  type Gateways = { me: Member; ownGatewayAccounts: GatewayAccountView[]; gatewaySetup: GatewaySetupView };
  type Gateway = { me: Member; ownGatewayAccount: GatewayAccountView; gatewaySetup: GatewaySetupView };

  /** Runs a page's read, answering a refusal (404 for another tenant's id) with its page. */
  async function read<T extends { me: Member }>(req: Request, res: Response, op: string, vars: Record<string, unknown> = {}) {
    try {
      return await signedIn<T>(req, res, op, vars);
    } catch (err) {
      const r = refusal(err);
      if (!r || r.status >= 500) throw err;
      refusedPage(res, r);
      return null;
    }
  }

  async function renderAccount(req: Request, res: Response, id: string, extra: { status?: number; notice?: string | null; error?: string | null } = {}) {
    const s = await read<Gateway>(req, res, "panel-gateway", { id });
    if (!s) return;
    const a = s.ownGatewayAccount;
    const setup = s.gatewaySetup.providers.find((p) => p.provider === a.provider);
    send(res, extra.status ?? 200, gatewayPage({ member: s.me, csrf: s.csrf, account: a, setup, notice: extra.notice, error: extra.error }));
  }

  async function renderConnect(req: Request, res: Response, slug: string, extra: { status?: number; name?: string; error?: string | null; errorField?: string } = {}) {
    const provider = CONNECTABLE[slug];
    if (!provider) return refusedPage(res, { status: 404, code: "not_found", error: "" });
    const s = await read<Gateways>(req, res, "panel-gateways");
    if (!s) return;
    // The form is not offered to a role that may not connect (the core would refuse the post anyway).
    if (!["OWNER", "ADMIN", "DEVELOPER"].includes(s.me.role)) return refusedPage(res, { status: 403, code: "role_forbidden", error: "" });
    const setup = s.gatewaySetup.providers.find((p) => p.provider === provider)!;
    send(res, extra.status ?? 200, connectPage({ member: s.me, csrf: s.csrf, slug, setup, baseUrlOverrideAllowed: s.gatewaySetup.baseUrlOverrideAllowed, ...extra }));
  }

  router.get("/panel/gateways", wrap(async (req, res) => {
    const s = await read<Gateways>(req, res, "panel-gateways");
    if (!s) return;
    send(res, 200, gatewaysPage({ member: s.me, csrf: s.csrf, accounts: s.ownGatewayAccounts, setup: s.gatewaySetup }));
  }));

  router.get("/panel/gateways/connect/:provider", wrap((req, res) => renderConnect(req, res, String(req.params.provider))));

  router.post("/panel/gateways/connect/:provider", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    const slug = String(req.params.provider);
    const provider = CONNECTABLE[slug];
    if (!provider) return refusedPage(res, { status: 404, code: "not_found", error: "" });
    const name = field(req.body, "name");
    try {
      const { gatewaySetup } = await call<{ gatewaySetup: GatewaySetupView }>(req, "panel-gateways", {}, token);
      const setup = gatewaySetup.providers.find((p) => p.provider === provider)!;
      const apiBaseUrl = field(req.body, "apiBaseUrl").trim() || null;
      const { connectGateway } = await call<{ connectGateway: { id: string } }>(
        req,
        "panel-connect-gateway",
        { provider, name, credentials: postedCredentials(req.body, setup), apiBaseUrl },
        token,
      );
      res.redirect(303, `/panel/gateways/${connectGateway.id}?connected=1`);
    } catch (err) {
      const r = refusal(err);
      if (!r || r.status >= 500) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      if (r.status === 403) return refusedPage(res, r);
      const errorField = r.code === "conflict" ? "name" : undefined;
      const error = r.code === "conflict" ? "Já existe uma conta com este nome." : credentialsMessage(r);
      await renderConnect(req, res, slug, { status: r.status, name, error, errorField });
    }
  }));

  router.get("/panel/gateways/:id", wrap(async (req, res) => {
    const notice = req.query.connected === "1" ? "Conta conectada: as credenciais foram aceitas pelo provedor." : req.query.saved === "1" ? "Credenciais trocadas e verificadas." : req.query.default === "1" ? "Esta é agora a conta padrão do provedor." : null;
    await renderAccount(req, res, String(req.params.id), { notice });
  }));

  router.post("/panel/gateways/:id/credentials", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    const id = String(req.params.id);
    try {
      // The account's own provider decides which fields the form had (another tenant's id: 404 here).
      const { ownGatewayAccount, gatewaySetup } = await call<Gateway>(req, "panel-gateway", { id }, token);
      const setup = gatewaySetup.providers.find((p) => p.provider === ownGatewayAccount.provider)!;
      const credentials = postedCredentials(req.body, setup);
      if (!Object.keys(credentials).length) return renderAccount(req, res, id, { status: 422, error: "Preencha ao menos um campo: os vazios continuam como estão." });
      await call(req, "panel-update-gateway-credentials", { id, credentials }, token);
      res.redirect(303, `/panel/gateways/${id}?saved=1`);
    } catch (err) {
      const r = refusal(err);
      if (!r || r.status >= 500) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      if (r.status === 403 || r.status === 404) return refusedPage(res, r);
      await renderAccount(req, res, id, { status: r.status, error: credentialsMessage(r) });
    }
  }));

  router.post("/panel/gateways/:id/default", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    const id = String(req.params.id);
    try {
      await call(req, "panel-set-default-gateway", { id }, token);
      res.redirect(303, `/panel/gateways/${id}?default=1`);
    } catch (err) {
      const r = refusal(err);
      if (!r || r.status >= 500) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      refusedPage(res, r);
    }
  }));
}
