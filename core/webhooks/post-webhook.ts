// One HTTP POST to a receiver. The status line decides (2xx = delivered); the body is drained and
// dropped, cut off past 1 MiB or at the timeout. The timeout covers the whole exchange. For every
// tenant the connection refuses addresses it may not reach after DNS (rebinding-safe SSRF guard):
// private ones always, loopback too for LIVE tenants. Each mode has sockets of its own: a kept-alive
// socket a SANDBOX delivery opened to loopback is never reused for a LIVE one. Redirects are not
// followed (a 3xx is a failed attempt). A failure is reported as a category (delivery-error.ts); the
// socket's own message is kept apart for the server log.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { ADDRESS_NOT_ALLOWED_CODE, categorizeError, type DeliveryError } from "./delivery-error.ts";
import { isAllowedAddress, isAllowedHost, type TenantMode } from "./endpoint-url.ts";

export interface PostResult {
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed, as the tenant may see it; null when the receiver answered 2xx. */
  error: DeliveryError | null;
  /** The raw failure (socket message, refused address): for the server log only, never stored. */
  detail: string | null;
  /** A malformed URL: no retry. */
  fatal: boolean;
  /** No answer within the timeout (the dispatcher then gives the endpoint fewer slots). */
  timedOut: boolean;
}

const MAX_RESPONSE_BYTES = 1 << 20;
// Per origin; the dispatcher's caps bound what is really in flight (several endpoints may share one origin).
const agentPair = () => ({
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
});
const agents: Record<TenantMode, ReturnType<typeof agentPair>> = { LIVE: agentPair(), SANDBOX: agentPair() };

const notAllowed = (message: string) => Object.assign(new Error(message), { code: ADDRESS_NOT_ALLOWED_CODE });

/** DNS, then the guard on every address, before the socket connects. */
const guardedLookup = (mode: TenantMode): LookupFunction => (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => !isAllowedAddress(a.address, mode));
    if (bad || list.length === 0) return callback(notAllowed(`refused: ${hostname} resolves to ${bad?.address ?? "nothing"}`), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
const lookups: Record<TenantMode, LookupFunction> = { LIVE: guardedLookup("LIVE"), SANDBOX: guardedLookup("SANDBOX") };

export function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; mode: TenantMode },
): Promise<PostResult> {
  let url: URL;
  try {
    url = new URL(rawUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    return Promise.resolve({ statusCode: null, latencyMs: 0, error: "invalid_url", detail: "malformed endpoint URL", fatal: true, timedOut: false });
  }
  // An address literal never goes through the lookup: check it here (names are checked there too).
  if (!isAllowedHost(url.hostname, opts.mode)) {
    return Promise.resolve({ statusCode: null, latencyMs: 0, error: "address_not_allowed", detail: `refused: ${url.hostname}`, fatal: false, timedOut: false });
  }
  const started = performance.now();
  const tls = url.protocol === "https:";
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    // A TLS connection whose TCP side is up but whose handshake is not done: a failure there is TLS's.
    let inHandshake = false;
    const settle = (r: Pick<PostResult, "statusCode" | "error" | "detail">) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, latencyMs: Math.round(performance.now() - started), fatal: false, timedOut });
    };
    const lib = tls ? https : http;
    let req: http.ClientRequest;
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error(`timeout after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    /**
     * `fresh`: a new connection of its own. A kept-alive socket the receiver closed just as we reused it
     * resets before any answer (Node's documented keep-alive race): nothing reached the receiver, so the
     * request goes once more on a new connection instead of costing the delivery a retry.
     */
    const send = (fresh: boolean) => {
      req = lib.request(url, {
        method: "POST",
        agent: fresh ? false : agents[opts.mode][url.protocol as "http:" | "https:"],
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        lookup: lookups[opts.mode],
      });
      const sent = req;
      if (tls) {
        sent.on("socket", (socket) => {
          if (!socket.connecting) return; // a kept-alive socket: its handshake was done long ago
          socket.once("connect", () => (inHandshake = true));
          socket.once("secureConnect", () => (inHandshake = false));
        });
      }
      sent.on("response", (res) => {
        const code = res.statusCode ?? null;
        const ok = code !== null && code >= 200 && code < 300;
        settle({ statusCode: code, error: ok ? null : "http_status", detail: null });
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) sent.destroy();
        });
        res.on("close", () => clearTimeout(timer));
        res.on("error", () => undefined);
      });
      sent.on("error", (err) => {
        const code = (err as NodeJS.ErrnoException).code;
        if (!fresh && !settled && !timedOut && sent.reusedSocket && code === "ECONNRESET") return send(true);
        clearTimeout(timer);
        const detail = `${code ?? "error"}: ${err.message}`.slice(0, 300);
        settle({ statusCode: null, error: categorizeError(err, { timedOut, inHandshake }), detail });
      });
      sent.end(body);
    };
    send(false);
  });
}
