// Subscription write routes: charge-now, payment-method-link, renewal-link.
import { Router, type Request } from "express";
import { AppError } from "../../../core/shared/errors.ts";
import type { CoreClient } from "../../core-client.ts";
import { loadOperation } from "../../operations.ts";
import { stringField } from "../../params.ts";
import { toPaymentMethodLink, toRenewalLink } from "../../serializers/link.ts";
import { toChargeNowResult } from "../../serializers/subscription-actions.ts";

const chargeNow = loadOperation("charge-now");
const createPaymentMethodLink = loadOperation("create-payment-method-link");
const createRenewalLink = loadOperation("create-renewal-link");

const INT32_MAX = 2 ** 31 - 1;

/** price_cents: a JSON integer or a form string of digits, 1..int32; anything else is 400 (the core checks ≥ 1 too). */
function priceCents(body: Record<string, unknown>): number | null {
  const v = body.price_cents;
  if (v === undefined || v === null) return null;
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d{1,12}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > INT32_MAX) throw new AppError("invalid_body", { error: "price_cents must be an integer of at least 1" });
  return n;
}

export function chargeAndLinkRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();

  r.post("/subscriptions/:id/charge-now", async (req, res) => {
    const data = await core.request<{ chargeNow: Parameters<typeof toChargeNowResult>[0] }>(chargeNow, { id: req.params.id }, headers(req));
    res.status(202).json(toChargeNowResult(data.chargeNow));
  });

  r.post("/subscriptions/:id/payment-method-link", async (req, res) => {
    const data = await core.request<{ createPaymentMethodLink: Parameters<typeof toPaymentMethodLink>[0] }>(
      createPaymentMethodLink,
      { id: req.params.id },
      headers(req),
    );
    res.status(201).json(toPaymentMethodLink(data.createPaymentMethodLink));
  });

  r.post("/subscriptions/:id/renewal-link", async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const offerId = stringField(body, "offer_id");
    const data = await core.request<{ createRenewalLink: Parameters<typeof toRenewalLink>[0] }>(
      createRenewalLink,
      { id: req.params.id, offerId, priceCents: priceCents(body) },
      headers(req),
    );
    res.status(201).json(toRenewalLink(data.createRenewalLink));
  });

  return r;
}
