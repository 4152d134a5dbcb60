// The request log above info (LOG_LEVEL=warn): no line per request, but the request id is kept and echoed,
// `req.log` names the request as it came in, and a 5xx answer still writes its "request errored" line.
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { requestLogging } from "../../server/observability.ts";

async function serve(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  const logger = pino({ level }, sink);
  const app = express();
  app.use(requestLogging(logger));
  const inner = express.Router();
  inner.get("/ok", (req, res) => void res.json({ id: (req as unknown as { id: string }).id }));
  inner.get("/boom", (req, res) => {
    (req as unknown as { log: pino.Logger }).log.error("handler failed");
    res.status(500).json({ error: "x" });
  });
  app.use("/v1", inner);
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { lines, base, close: () => new Promise((r) => server.close(r)) };
}

describe("request logging above info", () => {
  it("keeps and echoes the request id, writes no line for a 2xx, and one with the original path for a 5xx", async () => {
    const s = await serve("warn");
    try {
      const ok = await fetch(`${s.base}/v1/ok?email=a@b.c`, { headers: { "x-request-id": "req-123" } });
      expect(ok.headers.get("x-request-id")).toBe("req-123");
      expect(await ok.json()).toEqual({ id: "req-123" });
      const minted = await fetch(`${s.base}/v1/ok`, { headers: { "x-request-id": "bad id with spaces" } });
      expect(minted.headers.get("x-request-id")).toMatch(/^[0-9A-Z]{26}$/);
      expect(s.lines).toEqual([]);

      const boom = await fetch(`${s.base}/v1/boom?email=a@b.c`);
      expect(boom.status).toBe(500);
      await new Promise((r) => setTimeout(r, 50));
      expect(s.lines.map((l) => l.msg)).toEqual(["handler failed", "request errored"]);
      for (const line of s.lines) expect(line.req).toEqual({ id: boom.headers.get("x-request-id"), method: "GET", path: "/v1/boom" });
      expect(s.lines[1]).toMatchObject({ level: 50, res: { statusCode: 500 } });
      expect(JSON.stringify(s.lines)).not.toContain("a@b.c");
    } finally {
      await s.close();
    }
  });

  it("at info, every request gets pino-http's line", async () => {
    const s = await serve("info");
    try {
      await (await fetch(`${s.base}/v1/ok`)).text();
      await new Promise((r) => setTimeout(r, 50));
      expect(s.lines.map((l) => l.msg)).toEqual(["request completed"]);
    } finally {
      await s.close();
    }
  });
});
