// A kept-alive connection the receiver drops just as it is reused (Node's keep-alive race) reached
// nobody: the POST goes again once on a new connection, and the attempt is not lost to a retry. A
// failure on a new connection is still a failure.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "../../core/webhooks/post-webhook.ts";

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = null;
});

/** A receiver that answers the first request of each connection and drops the connection on the second. */
async function droppingReceiver(): Promise<{ url: string; answered: () => number }> {
  let answered = 0;
  const perSocket = new WeakMap<object, number>();
  server = http.createServer((req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    req.resume();
    req.on("end", () => {
      if (n > 1) return req.socket.destroy();
      answered++;
      res.writeHead(200, { connection: "keep-alive" }).end("ok");
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hooks`, answered: () => answered };
}

describe("a webhook POST on a kept-alive connection", () => {
  it("goes again on a new connection when the reused one is dropped before any answer", async () => {
    const rcv = await droppingReceiver();
    const opts = { timeoutMs: 5_000, mode: "SANDBOX" as const };
    expect((await postWebhook(rcv.url, "{}", {}, opts)).statusCode).toBe(200);
    // The second POST takes the kept-alive socket, which the receiver drops: then a new connection.
    const second = await postWebhook(rcv.url, "{}", {}, opts);
    expect(second).toMatchObject({ statusCode: 200, error: null });
    expect(rcv.answered()).toBe(2);
  });
});
