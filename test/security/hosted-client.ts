// A browser-like or JSON client of the hosted forms that connects from a chosen loopback address
// (Linux routes all of 127.0.0.0/8 to lo), so per-address limits can be told apart in one process.
import http from "node:http";
import { CARDS, CPF } from "../helpers/billing.ts";
import { testService } from "../helpers/service.ts";

export interface HostedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
}

export async function postFrom(
  address: string,
  path: string,
  fields: Record<string, string>,
  opts: { json?: boolean; baseUrl?: string } = {},
): Promise<HostedAnswer> {
  const body = opts.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  const headers = { "content-type": opts.json ? "application/json" : "application/x-www-form-urlencoded", accept: opts.json ? "application/json" : "text/html" };
  return sendFrom(address, opts.baseUrl ?? (await testService()).baseUrl, path, body, headers);
}

/** POST `body` as is from `address`. */
export function sendFrom(address: string, baseUrl: string, path: string, body: string | Buffer, headers: Record<string, string>): Promise<HostedAnswer> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, path, method: "POST", localAddress: address, agent: false, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }));
      },
    );
    // A server may answer (413) and close before the whole body is sent.
    req.on("error", reject);
    req.end(body);
  });
}

/** A complete checkout form: a new customer each time, paying with `card` (or by Pix). */
export function checkoutForm(over: Record<string, string> = {}, card: string | "pix" = CARDS.ok): Record<string, string> {
  const ext = `ext-${Math.random().toString(36).slice(2, 10)}`;
  const payment: Record<string, string> =
    card === "pix"
      ? { method: "pix" }
      : { method: "card", card_holder: "MARIA SILVA", card_number: card, card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" };
  return { external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: CPF, ...payment, ...over };
}
