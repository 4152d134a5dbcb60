// One HTTP POST to a receiver. The status line decides (2xx = delivered); the body is drained and
// dropped, cut off past 1 MiB or at the timeout. The timeout covers the whole exchange. For LIVE
// tenants the connection refuses private and loopback addresses after DNS (rebinding-safe SSRF guard),
// on sockets of their own: a kept-alive socket a SANDBOX delivery opened to an inside address is never
// reused for a LIVE one. Redirects are not followed (a 3xx is a failed attempt).
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isPrivateAddress, isPrivateHost } from "./endpoint-url.ts";

export interface PostResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
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
const agents = { any: agentPair(), publicOnly: agentPair() };

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad || list.length === 0) return callback(new Error(`refused: ${hostname} resolves to a private address`), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

export function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; publicOnly: boolean },
): Promise<PostResult> {
  let url: URL;
  try {
    url = new URL(rawUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    return Promise.resolve({ statusCode: null, latencyMs: 0, error: "malformed endpoint URL", fatal: true, timedOut: false });
  }
  // An address literal never goes through the lookup: check it here.
  if (opts.publicOnly && isPrivateHost(url.hostname)) {
    return Promise.resolve({ statusCode: null, latencyMs: 0, error: `refused: ${url.hostname} is a private address`, fatal: false, timedOut: false });
  }
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const settle = (r: Pick<PostResult, "statusCode" | "error">) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, latencyMs: Math.round(performance.now() - started), fatal: false, timedOut });
    };
    const lib = url.protocol === "https:" ? https : http;
    const req = lib.request(url, {
      method: "POST",
      agent: agents[opts.publicOnly ? "publicOnly" : "any"][url.protocol as "http:" | "https:"],
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
      ...(opts.publicOnly ? { lookup: publicOnlyLookup } : {}),
    });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error(`timeout after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on("response", (res) => {
      settle({ statusCode: res.statusCode ?? null, error: null });
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) req.destroy();
      });
      res.on("close", () => clearTimeout(timer));
      res.on("error", () => undefined);
    });
    req.on("error", (err) => {
      clearTimeout(timer);
      settle({ statusCode: null, error: err.message.slice(0, 200) });
    });
    req.end(body);
  });
}
