// Settings: the company profile, customer e-mail settings, alarm contacts (owners and admins, through the
// core's own-tenant mutations) and the sandbox clock (advanceClock, as any member who may write).
import type { Request, Response, Router } from "express";
import { field, refusal, send, wrap, type PanelKit } from "./panel-kit.ts";
import type { Member } from "./panel-layout.tsx";
import { refusedPage } from "./refused-page.ts";
import { CUSTOMER_EMAILS, PROFILE_FIELDS, settingsPage, type ClockSummary, type ProfileForm, type SettingsExtra, type TenantSettings } from "./settings-pages.tsx";

/** The core's profile refusal names its field first ("cnpj is not a valid CNPJ"): the message under that field. */
const PROFILE_MESSAGES: Record<string, string> = {
  legalName: "A razão social pode ter até 200 caracteres.",
  cnpj: "Informe um CNPJ válido: os dígitos verificadores não conferem.",
  supportEmail: "Informe um e-mail válido.",
  supportPhone: "Informe um telefone brasileiro válido, com DDD.",
  address: "O endereço pode ter até 300 caracteres.",
  termsUrl: "Informe um endereço https:// (em sandbox, http:// também vale).",
  privacyUrl: "Informe um endereço https:// (em sandbox, http:// também vale).",
};

function profileRefusal(error: string): { field?: string; error: string } {
  if (/LIVE tenant needs legalName and cnpj/.test(error)) return { field: "legalName", error: "Uma conta em produção precisa de razão social e CNPJ." };
  const first = /^(\w+)/.exec(error)?.[1] ?? "";
  return PROFILE_MESSAGES[first] ? { field: first, error: PROFILE_MESSAGES[first]! } : { error };
}

const HOUR = 3_600_000;
const UNITS: Record<string, number> = { hours: HOUR, days: 24 * HOUR, weeks: 7 * 24 * HOUR };

/** The instant the clock form asks for: a duration after the clock, or a São Paulo date and time (UTC−3, no DST since 2019). */
function clockTarget(body: unknown, clockAt: string | null): Date | string {
  if (field(body, "how") === "to") {
    const local = field(body, "to");
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return "Informe a data e a hora.";
    const at = new Date(`${local.length === 16 ? `${local}:00` : local}-03:00`);
    return Number.isNaN(at.getTime()) ? "Informe a data e a hora." : at;
  }
  const amount = Number(field(body, "amount"));
  const unit = field(body, "unit");
  if (!Number.isInteger(amount) || amount < 1 || amount > 3650 || !(unit in UNITS || unit === "months")) return "Informe quanto avançar: um número inteiro de 1 a 3650.";
  const from = clockAt ? new Date(clockAt) : new Date();
  if (unit === "months") {
    const to = new Date(from);
    to.setUTCMonth(to.getUTCMonth() + amount);
    return to;
  }
  return new Date(from.getTime() + amount * UNITS[unit]!);
}

export function settingsRoutes(router: Router, kit: PanelKit): void {
  const { call, signedIn } = kit;
  type Settings = { me: Member; ownTenant: TenantSettings };

  async function render(req: Request, res: Response, extra: SettingsExtra = {}) {
    const s = await signedIn<Settings>(req, res, "panel-settings");
    if (!s) return;
    send(res, extra.status ?? 200, settingsPage({ member: s.me, csrf: s.csrf, tenant: s.ownTenant, ...extra }));
  }

  /** Runs a settings form: done → back to the page with a notice; refused → the page with the form's error. */
  function post(path: string, run: (req: Request, token: string) => Promise<string>, onRefusal: (req: Request, r: { status: number; error: string }) => SettingsExtra) {
    router.post(path, wrap(async (req, res) => {
      const token = kit.sessionToken(req, res);
      if (!token) return;
      try {
        const notice = await run(req, token);
        res.redirect(303, `/panel/settings?done=${notice}`);
      } catch (err) {
        const r = refusal(err);
        if (!r || r.status >= 500) throw err;
        if (r.status === 401) return res.redirect(303, "/panel/login");
        if (r.status === 403 || r.status === 404) return refusedPage(res, r);
        await render(req, res, { status: r.status, ...onRefusal(req, r) });
      }
    }));
  }

  const NOTICES: Record<string, string> = { profile: "Perfil salvo.", email: "Configurações de e-mail salvas.", contacts: "Contatos salvos." };

  router.get("/panel/settings", wrap((req, res) => render(req, res, { notice: NOTICES[String(req.query.done)] ?? null })));

  const profileForm = (body: unknown): ProfileForm => Object.fromEntries(PROFILE_FIELDS.map(([k]) => [k, field(body, k)])) as ProfileForm;

  post(
    "/panel/settings/profile",
    async (req, token) => {
      await call(req, "panel-update-tenant-profile", { input: profileForm(req.body) }, token);
      return "profile";
    },
    (req, r) => ({ profile: { values: profileForm(req.body), ...profileRefusal(r.error) } }),
  );

  post(
    "/panel/settings/email",
    async (req, token) => {
      const customerEmailsOff = CUSTOMER_EMAILS.map(([k]) => k).filter((k) => field(req.body, `on_${k}`) !== "1");
      await call(req, "panel-update-tenant-email-settings", { input: { senderName: field(req.body, "senderName"), replyTo: field(req.body, "replyTo"), customerEmailsOff } }, token);
      return "email";
    },
    (_req, r) => ({ email: { error: /^replyTo/.test(r.error) ? "Informe um e-mail válido para respostas." : /^senderName/.test(r.error) ? "O nome do remetente pode ter até 100 caracteres, numa linha." : r.error } }),
  );

  post(
    "/panel/settings/contacts",
    async (req, token) => {
      const emails = field(req.body, "contacts").split(/[\s,;]+/).filter(Boolean);
      await call(req, "panel-update-tenant-contacts", { emails }, token);
      return "contacts";
    },
    (req, r) => ({ contacts: { values: field(req.body, "contacts"), error: /^at most/.test(r.error) ? "No máximo 10 endereços." : /is not an e-mail/.test(r.error) ? "Há um endereço que não é um e-mail válido." : r.error } }),
  );

  router.post("/panel/settings/clock", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    const s = await signedIn<Settings>(req, res, "panel-settings");
    if (!s) return;
    const to = clockTarget(req.body, s.ownTenant.clockAt);
    if (typeof to === "string") return render(req, res, { status: 422, clock: { error: to } });
    try {
      const { advanceClock } = await call<{ advanceClock: ClockSummary }>(req, "panel-advance-clock", { tenantId: s.me.tenantId, to: to.toISOString() }, token);
      await render(req, res, { clock: { summary: advanceClock } });
    } catch (err) {
      const r = refusal(err);
      if (!r || r.status >= 500) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      if (r.status === 403 || r.status === 404) return refusedPage(res, r);
      const error = /must not be before/.test(r.error) ? "O relógio só anda para a frente: escolha uma data depois da atual." : r.code === "sandbox_only" ? "Só contas sandbox têm relógio próprio." : r.error;
      await render(req, res, { status: r.status, clock: { error } });
    }
  }));
}
