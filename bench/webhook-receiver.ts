// The loopback webhook receivers of bench/webhooks.ts, in a child process of their own so that
// answering POSTs does not compete with the dispatcher for the bench's event loop. One node:http
// server per endpoint on 127.0.0.1; each records, per X-Billing-Event-Id, when the first request for
// that event arrived (Date.now(): the same machine clock as the parent's commit times), and answers
// 200 at once or after `stallMs`. Only node built-ins are imported here, so the child starts fast.
//
// Parent side: `await Receivers.start([{ stallMs: 0, expect: 20000 }])`, then `.urls`, `.waitFor(i)`,
// `.collect()` and `.close()`. The child is this file, run through the parent's loader (tsx).
import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface EndpointSpec {
  /** 0: answer 200 at once; otherwise hold every request this long, then 200. */
  stallMs: number;
  /** Distinct events after which the child reports this endpoint complete. */
  expect: number;
}

export interface EndpointLog {
  /** [event id, first arrival in ms since the epoch], in arrival order. */
  arrivals: [string, number][];
  requests: number;
  /** Requests for an event that had already arrived (at-least-once redeliveries). */
  duplicates: number;
  /** Requests without the X-Billing-Signature / webhook-signature headers. */
  unsigned: number;
}

export interface ReceiverReport {
  endpoints: EndpointLog[];
  /** CPU the receiver child spent while open (user + system), ms. */
  cpuMs: number;
}

type ToChild = { type: "open"; endpoints: EndpointSpec[] } | { type: "collect" } | { type: "close" };
type FromChild =
  | { type: "opened"; ports: number[] }
  | { type: "progress"; counts: number[] }
  | { type: "complete"; endpoint: number }
  | { type: "collected"; report: ReceiverReport };

const SELF = fileURLToPath(import.meta.url);
const PROGRESS_MS = 1_000;

// --- parent side -------------------------------------------------------------------------------------

export class Receivers {
  private counts: number[];
  private lastProgressAt = Date.now();
  private readonly complete = new Set<number>();
  private readonly waiters: (() => void)[] = [];
  private collected: ((r: ReceiverReport) => void) | null = null;

  private constructor(
    private readonly child: ChildProcess,
    readonly urls: string[],
  ) {
    this.counts = urls.map(() => 0);
    child.on("message", (m: FromChild) => {
      if (m.type === "progress") {
        if (m.counts.some((c, i) => c !== this.counts[i])) this.lastProgressAt = Date.now();
        this.counts = m.counts;
      } else if (m.type === "complete") this.complete.add(m.endpoint);
      else if (m.type === "collected") this.collected?.(m.report);
      this.waiters.splice(0).forEach((wake) => wake());
    });
  }

  static async start(endpoints: EndpointSpec[]): Promise<Receivers> {
    const child = fork(SELF, ["--receiver"], { execArgv: process.execArgv, stdio: "inherit" });
    const ports = await new Promise<number[]>((resolve, reject) => {
      child.once("message", (m: FromChild) => (m.type === "opened" ? resolve(m.ports) : reject(new Error(`receiver said ${m.type}`))));
      child.once("exit", (code) => reject(new Error(`receiver exited with ${code}`)));
      child.send({ type: "open", endpoints } satisfies ToChild);
    });
    child.removeAllListeners("exit");
    return new Receivers(child, ports.map((p) => `http://127.0.0.1:${p}/webhooks`));
  }

  /** Distinct events seen per endpoint, as of the child's last report (every second). */
  progress(): number[] {
    return [...this.counts];
  }

  /** Resolves true once endpoint `i` has seen all it expects; false past `deadlineMs`, or when nothing new arrived for `idleMs`. */
  async waitFor(i: number, { deadlineMs, idleMs = 60_000 }: { deadlineMs: number; idleMs?: number }): Promise<boolean> {
    const start = Date.now();
    this.lastProgressAt = start;
    while (!this.complete.has(i)) {
      if (Date.now() - this.lastProgressAt > idleMs || Date.now() - start > deadlineMs) return false;
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, PROGRESS_MS).unref();
      });
    }
    return true;
  }

  /** Every endpoint's log so far (the servers keep answering). */
  collect(): Promise<ReceiverReport> {
    return new Promise((resolve) => {
      this.collected = resolve;
      this.child.send({ type: "collect" } satisfies ToChild);
    });
  }

  /** Closes the servers, cutting held (stalled) requests, and waits for the child to exit. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || !this.child.connected) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.send({ type: "close" } satisfies ToChild);
    await exited;
  }
}

// --- child side -----------------------------------------------------------------------------------------

function runReceiverChild(): void {
  const servers: http.Server[] = [];
  const logs: { seen: Map<string, number>; requests: number; duplicates: number; unsigned: number }[] = [];
  const cpu0 = process.cpuUsage();
  let progress: NodeJS.Timeout | null = null;
  const send = (m: FromChild) => process.send!(m);

  async function open(endpoints: EndpointSpec[]): Promise<void> {
    for (const [i, spec] of endpoints.entries()) {
      const log = { seen: new Map<string, number>(), requests: 0, duplicates: 0, unsigned: 0 };
      logs.push(log);
      const server = http.createServer((req, res) => {
        const at = Date.now();
        log.requests++;
        const id = req.headers["x-billing-event-id"];
        if (!req.headers["x-billing-signature"] || !req.headers["webhook-signature"]) log.unsigned++;
        if (typeof id === "string") {
          if (log.seen.has(id)) log.duplicates++;
          else {
            log.seen.set(id, at);
            if (log.seen.size === spec.expect) send({ type: "complete", endpoint: i });
          }
        }
        req.resume();
        req.on("end", () => {
          const answer = () => res.writeHead(200, { "content-type": "text/plain" }).end("ok");
          if (spec.stallMs > 0) setTimeout(answer, spec.stallMs);
          else answer();
        });
      });
      // The dispatcher keeps its sockets alive; a server closing an idle one as it is reused would
      // show up as a failed attempt (and a retry a minute later), which is not what is measured.
      server.keepAliveTimeout = 120_000;
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      servers.push(server);
    }
    progress = setInterval(() => send({ type: "progress", counts: logs.map((l) => l.seen.size) }), PROGRESS_MS);
    send({ type: "opened", ports: servers.map((s) => (s.address() as AddressInfo).port) });
  }

  function collect(): void {
    const cpu = process.cpuUsage(cpu0);
    send({
      type: "collected",
      report: {
        endpoints: logs.map((l) => ({ arrivals: [...l.seen], requests: l.requests, duplicates: l.duplicates, unsigned: l.unsigned })),
        cpuMs: (cpu.user + cpu.system) / 1000,
      },
    });
  }

  async function close(): Promise<void> {
    if (progress) clearInterval(progress);
    await Promise.all(
      servers.map((s) => {
        s.closeAllConnections();
        return new Promise<void>((resolve) => s.close(() => resolve()));
      }),
    );
    process.disconnect();
    process.exit(0);
  }

  process.on("message", (m: ToChild) => {
    if (m.type === "open") void open(m.endpoints);
    else if (m.type === "collect") collect();
    else if (m.type === "close") void close();
  });
  // The parent went away (crash, Ctrl-C): do not linger holding ports.
  process.on("disconnect", () => process.exit(0));
}

if (process.argv.includes("--receiver") && process.argv[1] && path.resolve(process.argv[1]) === SELF) runReceiverChild();
