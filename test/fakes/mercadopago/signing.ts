// Mercado Pago's notice signature, written from its documentation ("Webhooks › validate the origin of the
// notification", mercadopago.com.br/developers/en/docs/your-integrations/notifications/webhooks):
// `x-signature: ts=<unix seconds>,v1=<hex HMAC-SHA256 of the manifest keyed by the application's secret>`,
// manifest `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` where data.id is the one of the notification
// URL's query string, lower-cased when alphanumeric. Written independently of the mercadopago package's
// validator, so the adapter's verification is checked against a second reading.
import { createHmac } from "node:crypto";

export function manifestOf(dataId: string, requestId: string, ts: number): string {
  const id = /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  return `id:${id};request-id:${requestId};ts:${ts};`;
}

export function signatureHeader(dataId: string, requestId: string, secret: string, ts: number): string {
  const v1 = createHmac("sha256", secret).update(manifestOf(dataId, requestId, ts), "utf8").digest("hex");
  return `ts=${ts},v1=${v1}`;
}
