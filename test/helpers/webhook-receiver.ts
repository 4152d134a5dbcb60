// A real HTTP receiver on loopback for webhook tests: records every request (raw body, headers,
// arrival time) and answers as the test says: a status, a delay, a hang, or nothing at all (down).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { op } from "./http.ts";
import type { TestTenant } from "./tenant.ts";

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
  /** Status answered; undefined while (or when never) answered. */
  answered?: number;
}

export type Answer = { status: number; delayMs?: number } | "hang";

export class Receiver {
  readonly requests: Received[] = [];
  answer: (r: Received, nth: number) => Answer = () => ({ status: 200 });
  private server: http.Server;
  private port = 0;

  private constructor() {
    this.server = this.makeServer();
  }

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    await r.listen();
    return r;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Requests that carried this event id, in arrival order. */
  of(eventId: string): Received[] {
    return this.requests.filter((r) => r.headers["x-billing-event-id"] === eventId);
  }

  async waitFor(pred: (rs: Received[]) => boolean, timeoutMs = 10_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!pred(this.requests)) {
      if (Date.now() > end) throw new Error(`receiver: condition not met in ${timeoutMs} ms (${this.requests.length} requests)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Stop answering: connections are refused until up(). */
  async down(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async up(): Promise<void> {
    this.server = this.makeServer();
    await this.listen();
  }

  async stop(): Promise<void> {
    if (this.server.listening) await this.down();
  }

  private makeServer(): http.Server {
    return http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const rec: Received = { headers: req.headers, raw, body: safeJson(raw), at: Date.now() };
        this.requests.push(rec);
        const answer = this.answer(rec, this.requests.length);
        if (answer === "hang") return; // never answers: the sender's timeout must cut it
        setTimeout(() => {
          rec.answered = answer.status;
          res.writeHead(answer.status).end("ok");
        }, answer.delayMs ?? 0);
      });
    });
  }

  private async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export async function addEndpoint(t: TestTenant, url: string, events: string[] = []): Promise<{ id: string; secret: string }> {
  const data = await op(`mutation($t: ID!, $u: String!, $e: [String!]) { createWebhookEndpoint(tenantId: $t, url: $u, events: $e) { id secret } }`, {
    t: t.tenantId,
    u: url,
    e: events,
  });
  return data.createWebhookEndpoint;
}

export const DELIVERY_FIELDS = `id status attemptCount nextAttemptAt lastStatusCode lastError deliveredAt
  event { id type } endpoint { id }
  attempts { attemptNo scheduledAt startedAt statusCode latencyMs error }`;

export async function deliveries(t: TestTenant, filter: { eventId?: string; status?: string } = {}): Promise<any[]> {
  const data = await op(
    `query($t: ID!, $e: ID, $s: WebhookDeliveryStatus) { webhookDeliveries(tenantId: $t, eventId: $e, status: $s, first: 500) { edges { node { ${DELIVERY_FIELDS} } } } }`,
    { t: t.tenantId, e: filter.eventId ?? null, s: filter.status ?? null },
  );
  return data.webhookDeliveries.edges.map((e: any) => e.node);
}

/** A starter of receivers that are stopped after each test of the calling file. */
export function receiversPerTest(): () => Promise<Receiver> {
  const started: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((r) => r.stop()));
  });
  return async () => {
    const r = await Receiver.start();
    started.push(r);
    return r;
  };
}
