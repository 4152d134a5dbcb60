// Raw /graphql requests for the security tests: any body, any headers, from a chosen loopback
// address (per-address limits), with the answer's status, headers and parsed body.
import http from "node:http";
import { testService } from "../helpers/service.ts";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
  ms: number;
}

export async function graphqlRequest(opts: {
  body?: string | object;
  token?: string | null;
  headers?: Record<string, string>;
  method?: string;
  path?: string;
  localAddress?: string;
  baseUrl?: string;
}): Promise<RawAnswer> {
  const base = new URL(opts.baseUrl ?? (await testService()).baseUrl);
  const body = opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = {
    ...(body !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}),
    ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    ...opts.headers,
  };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, path: opts.path ?? "/graphql", method: opts.method ?? "POST", headers, localAddress: opts.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* HTML, scripts */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed, ms: performance.now() - started });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The contract's error body carried by the first GraphQL error. */
export const firstError = (a: RawAnswer) => a.body?.errors?.[0]?.extensions?.body;
