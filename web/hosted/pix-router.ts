// The Pix pages' follow-up: GET /pix/follow.js (the page's own script), GET /pix/{payment_id}/status
// (JSON for that script) and GET /pix/{payment_id}/result (where it, or the "Já paguei" link, lands).
// Both payment routes need the page's `k` (core/checkout/get-pix-status.ts): the id alone is a 404.
import { Router, type ErrorRequestHandler } from "express";
import { getPixStatus, pixStatusKey, type PixStatusView } from "../../core/checkout/get-pix-status.ts";
import type { Runtime } from "../../core/runtime.ts";
import { getSeller } from "../../core/tenants/get-seller.ts";
import { toHttp } from "../../http/error-map.ts";
import { formatPrice } from "../ui/format.ts";
import { renderMessagePage } from "../ui/layout.tsx";
import type { PixFollow } from "./pix-code.tsx";
import { PIX_FOLLOW_JS, PIX_FOLLOW_PATH } from "./pix-follow.ts";
import { logSafely } from "./log-safely.ts";
import { hostedPageHeaders, sendHostedPage } from "./send-page.ts";

/** The follow URLs a Pix page carries for this payment. */
export async function pixFollowFor(runtime: Runtime, paymentId: string): Promise<PixFollow> {
  const k = encodeURIComponent(await pixStatusKey(runtime.db.prisma, paymentId));
  return { statusUrl: `/pix/${paymentId}/status?k=${k}`, resultUrl: `/pix/${paymentId}/result?k=${k}` };
}

function resultText(view: PixStatusView): [string, string] {
  const amount = formatPrice(view.amountCents, "brl");
  switch (view.status) {
    case "paid":
      return ["Pagamento confirmado", `Recebemos seu Pix de ${amount}. Obrigado!`];
    case "expired":
      return ["Pix expirado", "Este Pix expirou sem pagamento e nada foi cobrado. Abra o link de pagamento de novo para gerar outro código."];
    case "failed":
      return ["Pagamento não concluído", "Este Pix não foi concluído e nada foi cobrado. Abra o link de pagamento de novo para gerar outro código."];
    default:
      return ["Aguardando o pagamento", `Ainda não recebemos a confirmação do seu Pix de ${amount}. Se você já pagou, aguarde alguns instantes e atualize esta página.`];
  }
}

export function pixRouter(runtime: Runtime): Router {
  const r = Router();
  const prisma = runtime.db.prisma;

  r.get(PIX_FOLLOW_PATH, (_req, res) => {
    res.status(200).set({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" }).send(PIX_FOLLOW_JS);
  });

  r.get("/pix/:paymentId/status", async (req, res) => {
    const view = await getPixStatus(prisma, runtime.wallClock, String(req.params.paymentId ?? ""), String(req.query.k ?? ""));
    res.status(200).set({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }).json({
      status: view.status,
      amount_cents: view.amountCents,
      expires_at: view.expiresAt ? view.expiresAt.toISOString() : null,
    });
  });

  r.get("/pix/:paymentId/result", hostedPageHeaders(runtime), async (req, res) => {
    const view = await getPixStatus(prisma, runtime.wallClock, String(req.params.paymentId ?? ""), String(req.query.k ?? ""));
    const [heading, text] = resultText(view);
    sendHostedPage(res, runtime, 200, renderMessagePage(heading, text, await getSeller(prisma, view.tenantId)));
  });

  const errors: ErrorRequestHandler = (err, req, res, next) => {
    if (!/^\/pix\/[^/]+\/(status|result)$/.test(req.path)) return next(err);
    const { status, body } = toHttp(err);
    if (status >= 500) logSafely(req, runtime, err, "pix status failed");
    if (res.headersSent) return;
    if (req.path.endsWith("/status")) return void res.status(status).set("Cache-Control", "no-store").json(body);
    sendHostedPage(res, runtime, status, renderMessagePage("Pagamento não encontrado", "Este endereço de pagamento não existe. Abra o link de pagamento de novo."));
  };
  r.use(errors);
  return r;
}
