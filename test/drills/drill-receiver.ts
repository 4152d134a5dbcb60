// The loopback webhook receiver of the drills: records every (endpoint path, event id, answer), and
// answers as the trial says (a delay, or a 500 for an event's first attempt to force retries).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Hit {
  path: string;
  eventId: string;
  status: number;
}

export class DrillReceiver {
  readonly hits: Hit[] = [];
  /** Per request: delay before answering, and the status. */
  answer: (path: string, eventId: string, nth: number) => { delayMs: number; status: number } = () => ({ delayMs: 0, status: 200 });
  private readonly seen = new Map<string, number>();
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<DrillReceiver> {
    let self: DrillReceiver | null = null;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const path = req.url ?? "";
        const eventId = String(req.headers["x-billing-event-id"] ?? "");
        const key = `${path} ${eventId}`;
        const nth = (self!.seen.get(key) ?? 0) + 1;
        self!.seen.set(key, nth);
        const { delayMs, status } = self!.answer(path, eventId, nth);
        setTimeout(() => {
          // The hit counts once the answer is on its way: a sender killed before reading it still has to resend.
          self!.hits.push({ path, eventId, status });
          res.writeHead(status).end("ok");
        }, delayMs);
      });
    });
    self = new DrillReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    return self;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Event ids answered 2xx at this path. */
  delivered(path: string): Set<string> {
    return new Set(this.hits.filter((h) => h.path === path && h.status >= 200 && h.status < 300).map((h) => h.eventId));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
