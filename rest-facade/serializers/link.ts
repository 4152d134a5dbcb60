// Link answers of /v1 from typed selections: the payment-method and renewal links (POST) and the
// payment links of an open invoice or a pending order (GET …/payment-link).
export const toPaymentMethodLink = (r: { token: string; url: string; expiresAt: string; status: string }) => ({
  token: r.token,
  url: r.url,
  expires_at: r.expiresAt,
  status: r.status,
});

export const toRenewalLink = (r: { token: string; url: string; priceCents: number; expiresAt: string; status: string }) => ({
  token: r.token,
  url: r.url,
  price_cents: r.priceCents,
  expires_at: r.expiresAt,
  status: r.status,
});

export interface PaymentLinkSelection {
  url: string;
  status: string;
  amountCents: number;
  currency: string;
  method: string;
  expiresAt: string;
  pix: { copyPaste: string; qrPngUrl: string; expiresAt: string } | null;
}

export const toPaymentLink = (l: PaymentLinkSelection) => ({
  url: l.url,
  status: l.status,
  amount_cents: l.amountCents,
  currency: l.currency,
  method: l.method,
  expires_at: l.expiresAt,
  pix: l.pix ? { copy_paste: l.pix.copyPaste, qr_png_url: l.pix.qrPngUrl, expires_at: l.pix.expiresAt } : null,
});
