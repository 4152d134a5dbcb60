// The webhooks section: /panel/webhooks and /panel/webhooks/:id. Every read and write is a persisted
// operation run as the signed-in member; the core decides who may do what and which tenant it is.
// A form refused for its content comes back with the typed values and the core's message; a refusal of
// the member's role is a clear 403 page; an id the member's tenant does not own is the 404 page.
import type { Request, Response, Router } from "express";
import { field, refusal, send, wrap, type PanelKit } from "./panel-kit.ts";
import { messagePage, type Member } from "./panel-layout.tsx";
import {
  deleteWebhookPage,
  NOTICES,
  webhookPage,
  webhooksPage,
  type DeliveryRow,
  type EndpointForm,
  type EndpointRow,
  type SecretShown,
} from "./webhook-pages.tsx";

interface EndpointData {
  me: Member;
  webhookEndpoint: EndpointRow | null;
  webhookDeliveries: { edges: { node: DeliveryRow }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

const ID = /^we_[0-9A-HJKMNP-TV-Z]{26}$/;
const DELIVERY_ID = /^dlv_[0-9A-HJKMNP-TV-Z]{26}_[0-9A-HJKMNP-TV-Z]{26}$/;

const notFoundPage = () => messagePage("Endpoint não encontrado", "Este endpoint não existe ou não pertence à sua conta.", { href: "/panel/webhooks", text: "Voltar aos webhooks" });

/** The add/edit form as posted: "all events" or the checked types (repeated `events` fields). */
function endpointForm(body: unknown): EndpointForm {
  const raw = (body as Record<string, unknown> | undefined)?.events;
  const events = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === "string");
  const allEvents = field(body, "scope") !== "chosen";
  return { url: field(body, "url"), description: field(body, "description"), allEvents, events: allEvents ? [] : events, enabled: field(body, "enabled") === "1" };
}

/** A date field (yyyy-mm-dd) as the start of that day in Brasília (UTC-3, no daylight saving since 2019). */
function sinceOf(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const at = new Date(`${value}T00:00:00-03:00`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

export function webhookRoutes(router: Router, kit: PanelKit): void {
  const { call, signedIn } = kit;

  async function renderList(req: Request, res: Response, extra: { status?: number; error?: string | null; form?: EndpointForm } = {}) {
    const s = await signedIn<{ me: Member; webhookEndpoints: EndpointRow[] }>(req, res, "panel-webhooks");
    if (!s) return;
    send(res, extra.status ?? 200, webhooksPage({ member: s.me, csrf: s.csrf, endpoints: s.webhookEndpoints, ...extra }));
  }

  type Extra = { status?: number; notice?: string | null; error?: string | null; form?: EndpointForm; secret?: SecretShown | null; resentCount?: number | null };

  async function renderEndpoint(req: Request, res: Response, id: string, extra: Extra = {}) {
    if (!ID.test(id)) return send(res, 404, notFoundPage());
    const after = typeof req.query.after === "string" && DELIVERY_ID.test(req.query.after) ? req.query.after : null;
    const s = await signedIn<EndpointData>(req, res, "panel-webhook", { id, after });
    if (!s) return;
    if (!s.webhookEndpoint) return send(res, 404, notFoundPage());
    const { edges, pageInfo } = s.webhookDeliveries;
    send(
      res,
      extra.status ?? 200,
      webhookPage({
        member: s.me,
        csrf: s.csrf,
        endpoint: s.webhookEndpoint,
        deliveries: edges.map((e) => e.node),
        olderCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null,
        ...extra,
      }),
    );
  }

  /**
   * Runs a write as the member. A refusal of the form's content re-renders with `onInvalid`; the
   * member's role, an unknown record and anything else get their own page.
   */
  async function act(req: Request, res: Response, run: (token: string) => Promise<void>, onInvalid: (error: string, status: number) => Promise<void>) {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    try {
      await run(token);
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      if (r.status === 404) return send(res, 404, notFoundPage());
      if (r.status === 403) return send(res, 403, messagePage("Ação não permitida", r.error, { href: "/panel/webhooks", text: "Voltar aos webhooks" }));
      if (r.status >= 500) throw err;
      await onInvalid(r.error, r.status);
    }
  }

  router.get("/panel/webhooks", wrap((req, res) => renderList(req, res)));

  router.post("/panel/webhooks", wrap(async (req, res) => {
    const form = endpointForm(req.body);
    await act(
      req,
      res,
      async (token) => {
        const { addWebhookEndpoint } = await call<{ addWebhookEndpoint: { id: string } }>(
          req,
          "panel-add-webhook-endpoint",
          { url: form.url, description: form.description, events: form.events, enabled: form.enabled },
          token,
        );
        res.redirect(303, `/panel/webhooks/${addWebhookEndpoint.id}?done=added`);
      },
      (error, status) => renderList(req, res, { status, error, form }),
    );
  }));

  router.get("/panel/webhooks/:id", wrap(async (req, res) => {
    const done = typeof req.query.done === "string" ? req.query.done : "";
    await renderEndpoint(req, res, String(req.params.id), { notice: Object.hasOwn(NOTICES, done) ? NOTICES[done] : null });
  }));

  router.get("/panel/webhooks/:id/delete", wrap(async (req, res) => {
    const id = String(req.params.id);
    if (!ID.test(id)) return send(res, 404, notFoundPage());
    const s = await signedIn<EndpointData>(req, res, "panel-webhook", { id, after: null });
    if (!s) return;
    if (!s.webhookEndpoint) return send(res, 404, notFoundPage());
    send(res, 200, deleteWebhookPage({ member: s.me, csrf: s.csrf, endpoint: s.webhookEndpoint }));
  }));

  /** A POST on one endpoint: `run` gets the token and the id; refusals re-render the endpoint page. */
  const onEndpoint = (path: string, run: (req: Request, res: Response, token: string, id: string) => Promise<void>, form?: (body: unknown) => EndpointForm) =>
    router.post(`/panel/webhooks/:id/${path}`, wrap(async (req, res) => {
      const id = String(req.params.id);
      if (!ID.test(id)) return send(res, 404, notFoundPage());
      await act(
        req,
        res,
        (token) => run(req, res, token, id),
        (error, status) => renderEndpoint(req, res, id, { status, error, form: form?.(req.body) }),
      );
    }));

  onEndpoint(
    "edit",
    async (req, res, token, id) => {
      const f = endpointForm(req.body);
      await call(req, "panel-update-webhook-endpoint", { id, url: f.url, description: f.description, events: f.events }, token);
      res.redirect(303, `/panel/webhooks/${id}?done=saved`);
    },
    endpointForm,
  );

  for (const [path, enabled] of [["enable", true], ["disable", false]] as const) {
    onEndpoint(path, async (req, res, token, id) => {
      await call(req, "panel-set-webhook-endpoint-enabled", { id, enabled }, token);
      res.redirect(303, `/panel/webhooks/${id}?done=${enabled ? "enabled" : "disabled"}`);
    });
  }

  onEndpoint("delete", async (req, res, token, id) => {
    await call(req, "panel-delete-webhook-endpoint", { id }, token);
    send(res, 200, messagePage("Endpoint excluído", "Nenhum evento será mais enviado a ele. O histórico de entregas continua guardado.", { href: "/panel/webhooks", text: "Voltar aos webhooks" }));
  });

  // The secret is drawn on this answer, never put in a URL (no redirect).
  onEndpoint("secret", async (req, res, token, id) => {
    const { revealWebhookSecret: s } = await call<{ revealWebhookSecret: { secret: string; previousSecretExpiresAt: string | null } }>(req, "panel-reveal-webhook-secret", { id }, token);
    await renderEndpoint(req, res, id, { secret: { ...s, rolled: false } });
  });

  onEndpoint("roll", async (req, res, token, id) => {
    const { rollWebhookSecret: s } = await call<{ rollWebhookSecret: { secret: string; previousSecretExpiresAt: string } }>(req, "panel-roll-webhook-secret", { id }, token);
    await renderEndpoint(req, res, id, { secret: { ...s, rolled: true } });
  });

  onEndpoint("test", async (req, res, token, id) => {
    await call(req, "panel-send-test-webhook-event", { endpointId: id }, token);
    res.redirect(303, `/panel/webhooks/${id}?done=test`);
  });

  onEndpoint("resend-failed", async (req, res, token, id) => {
    const since = sinceOf(field(req.body, "since"));
    if (!since) return renderEndpoint(req, res, id, { status: 422, error: "Informe uma data válida (dia/mês/ano)." });
    const { resendFailedWebhookDeliveries: r } = await call<{ resendFailedWebhookDeliveries: { resent: number } }>(req, "panel-resend-failed-webhook-deliveries", { endpointId: id, since }, token);
    await renderEndpoint(req, res, id, { resentCount: r.resent });
  });

  router.post("/panel/webhooks/:id/deliveries/:delivery/resend", wrap(async (req, res) => {
    const id = String(req.params.id);
    const delivery = String(req.params.delivery);
    if (!ID.test(id) || !DELIVERY_ID.test(delivery)) return send(res, 404, notFoundPage());
    await act(
      req,
      res,
      async (token) => {
        await call(req, "panel-resend-webhook-delivery", { id: delivery }, token);
        res.redirect(303, `/panel/webhooks/${id}?done=resent`);
      },
      (error, status) => renderEndpoint(req, res, id, { status, error }),
    );
  }));
}
