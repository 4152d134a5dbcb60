// The hosted pages' refusal texts for cards and coupons. A page that says why
// a card or a coupon was refused is an oracle: card testers learn which stolen numbers are alive
// ("saldo insuficiente") and coupon hunters which codes exist ("esgotado" vs "inválido"). Every
// decline and every unusable coupon reads the same; the precise reason stays in the gateway event
// row (detail_code) and, for coupons, on the error's `cause` for the log.
import { AppError } from "../shared/errors.ts";

export const CARD_NOT_APPROVED = "pagamento não aprovado; verifique os dados ou use outro cartão";
export const COUPON_UNUSABLE = "cupom inválido ou indisponível";

/** The gateway could not be asked: not about the card, so the visitor is told to retry. */
const GATEWAY_UNAVAILABLE = "não foi possível validar o cartão agora; tente novamente";

/** The text a decline code shows on a hosted page: one text for every decline. */
export function declineText(code: string): string {
  return code === "gateway_unavailable" ? GATEWAY_UNAVAILABLE : CARD_NOT_APPROVED;
}

/** Shown while the provider's 3-D Secure challenge runs on the page (the page's script then posts again). */
export const AUTHENTICATE_CARD = "confirme o cartão na janela do seu banco para continuar";

/**
 * The card needs the payer's authentication (3-D Secure) before it can be saved: 422 naming
 * authentication_id, with the provider's browser handle in next_action (the page runs the challenge with it).
 */
export function authenticationNeeded(nextAction: string): AppError {
  return new AppError("invalid_field", { error: AUTHENTICATE_CARD, extra: { field: "authentication_id", next_action: nextAction } });
}

export type CouponRefusalReason = "unknown" | "inactive" | "expired" | "exhausted" | "not_applicable";

/** The coupon field's refusal: the generic text, with the reason kept on `cause` (logged, never shown). */
export function couponRefusal(reason: CouponRefusalReason): AppError {
  const e = new AppError("invalid_field", { error: COUPON_UNUSABLE, extra: { field: "coupon" } });
  e.cause = reason;
  return e;
}
