// The webhook dispatcher of one process. Woken by the deliveries' NOTIFY right after commit (and by a
// poll for retries), it keeps up to `concurrency` attempts in flight, at most `perEndpoint` of them
// to one endpoint, and only `slowEndpoint` to an endpoint whose last attempt timed out (for a
// minute): stalled receivers hold a few slots and never the others' deliveries.
// Outcomes are written in batches. Crash safety comes from the leases: nothing is marked done before
// the receiver answered, and an abandoned lease makes the delivery due again.
// An attempt holds its slot until its outcome is stored: when the database writes fall behind, the
// dispatcher claims less instead of sending on while outcomes queue up past their leases (which
// made another instance send the same attempt again).
import type { Runtime } from "../runtime.ts";
import { DEFAULT_LEASES } from "../shared/leases.ts";
import { attemptDelivery, WEBHOOK_TIMEOUT_MS } from "./attempt-delivery.ts";
import { claimDueDeliveries, type ClaimedDelivery } from "./claim-deliveries.ts";
import { webhookAttempts, webhookExhausted, webhookFirstAttemptLag } from "./metrics.ts";
import { recordAttempts, type AttemptOutcome } from "./record-attempts.ts";
import { queueEndpointAlarms } from "./queue-endpoint-alarms.ts";

export const WEBHOOKS_CHANNEL = "billing_webhooks_due";
/** At most this many deliveries per claim; the pump claims again at once while claims come back full. */
const CLAIM_BATCH = 32;

export interface DispatcherOptions {
  concurrency: number;
  perEndpoint: number;
  /** Cap for an endpoint whose last attempt timed out, for `slowForMs`. */
  slowEndpoint: number;
  slowForMs: number;
  leaseMs: number;
  timeoutMs: number;
  flushMs: number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  concurrency: 256,
  perEndpoint: 16,
  slowEndpoint: 2,
  slowForMs: 60_000,
  leaseMs: DEFAULT_LEASES.webhookMs,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  flushMs: 5,
};

export class WebhookDispatcher {
  private inflight = 0;
  private readonly perEndpoint = new Map<string, number>();
  /** Endpoints that timed out lately -> until when they get the slow cap. */
  private readonly slowUntil = new Map<string, number>();
  private pumping = false;
  private wanted = false;
  private backlog = false;
  private pending: { outcome: AttemptOutcome; stored: () => void }[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  /** The store in progress; outcomes that arrive meanwhile go together into the next one. */
  private flushing: Promise<void> | null = null;
  private stopped = false;
  private readonly opts: DispatcherOptions;

  constructor(
    private readonly runtime: Runtime,
    opts: Partial<DispatcherOptions> = {},
  ) {
    this.opts = { ...DEFAULT_DISPATCHER_OPTIONS, leaseMs: runtime.leases.webhookMs, ...opts };
  }

  async start(): Promise<void> {
    await this.runtime.db.listen(WEBHOOKS_CHANNEL, () => this.kick());
    this.kick();
  }

  /** Look for due deliveries now (after a commit, a poll tick, or freed capacity). */
  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.wanted = true;
      return;
    }
    this.pumping = true;
    void this.pump().finally(() => {
      this.pumping = false;
      if (this.wanted) this.kick();
    });
  }

  private async pump(): Promise<void> {
    do {
      this.wanted = false;
      const free = this.opts.concurrency - this.inflight;
      if (free <= 0) return;
      // A claim reads a window of 4 rows per row it may take: sized by the whole free capacity, one
      // endpoint's few free slots cost a read and sort of thousands of backlog rows each time.
      const limit = Math.min(free, CLAIM_BATCH);
      let claimed: ClaimedDelivery[];
      try {
        claimed = await claimDueDeliveries(this.runtime.db.prisma, {
          limit,
          now: this.runtime.wallClock.now(),
          leaseMs: this.opts.leaseMs,
          perEndpoint: this.opts.perEndpoint,
          busy: this.room(),
        });
      } catch (err) {
        this.runtime.logger.error({ err }, "webhook claim failed");
        return;
      }
      this.backlog = claimed.length === limit;
      for (const d of claimed) this.launch(d);
    } while (this.wanted || this.backlog);
  }

  /** Room left per endpoint that has attempts in flight or a reduced cap. */
  private room(): Map<string, number> {
    const now = this.runtime.wallClock.now().getTime();
    const room = new Map<string, number>();
    for (const [ep, until] of this.slowUntil) {
      if (until <= now) this.slowUntil.delete(ep);
      else room.set(ep, this.opts.slowEndpoint);
    }
    for (const [ep, n] of this.perEndpoint) room.set(ep, (room.get(ep) ?? this.opts.perEndpoint) - n);
    return room;
  }

  private launch(d: ClaimedDelivery): void {
    const ep = d.endpoint_id;
    this.inflight++;
    this.perEndpoint.set(ep, (this.perEndpoint.get(ep) ?? 0) + 1);
    if (d.attempt_count === 0) webhookFirstAttemptLag.observe(Math.max(0, this.runtime.wallClock.now().getTime() - d.event_recorded_at.getTime()) / 1000);
    void attemptDelivery(d, this.runtime.wallClock, this.opts.timeoutMs)
      .then((outcome) => {
        this.runtime.faults?.("after-webhook-post");
        if (outcome.timedOut) this.slowUntil.set(ep, this.runtime.wallClock.now().getTime() + this.opts.slowForMs);
        else if (outcome.statusCode !== null) this.slowUntil.delete(ep);
        return this.queue(outcome);
      })
      .catch((err) => this.runtime.logger.error({ err, delivery_id: d.id }, "webhook attempt crashed"))
      .finally(() => {
        this.inflight--;
        const n = (this.perEndpoint.get(ep) ?? 1) - 1;
        if (n <= 0) this.perEndpoint.delete(ep);
        else this.perEndpoint.set(ep, n);
        if (this.backlog || this.inflight < this.opts.concurrency / 2) this.kick();
      });
  }

  /** Resolves once the outcome is stored (or its store failed and the lease will bring it back). */
  private queue(outcome: AttemptOutcome): Promise<void> {
    return new Promise((stored) => {
      this.pending.push({ outcome, stored });
      if (!this.flushing) this.flushTimer ??= setTimeout(() => void this.flush(), this.opts.flushMs);
    });
  }

  /** Writes the outcomes gathered so far, one store at a time (group commit). Resolves when all are stored. */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.flushing ??= (async () => {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await storeOutcomes(this.runtime, batch.map((p) => p.outcome));
        } finally {
          for (const p of batch) p.stored();
        }
      }
    })().finally(() => {
      this.flushing = null;
      // An outcome queued between the loop's last check and here would otherwise wait for the next one.
      if (this.pending.length > 0) this.flushTimer ??= setTimeout(() => void this.flush(), this.opts.flushMs);
    });
    return this.flushing;
  }

  /** Stop claiming; wait for the attempts in flight and write their outcomes. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.inflight > 0) await new Promise((r) => setTimeout(r, 10));
    await this.flush();
  }
}

/** Stores outcomes and raises the alarms: error log and metric for every exhausted delivery, e-mail to the vendor's team. */
export async function storeOutcomes(runtime: Runtime, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const exhausted = outcomes.filter((o) => o.status === "EXHAUSTED").map((o) => ({ deliveryId: o.deliveryId, tenantId: o.tenantId, scheduledAt: o.scheduledAt, startedAt: o.startedAt }));
  try {
    if (exhausted.length === 0) await recordAttempts(runtime.db.prisma, outcomes);
    else
      // The vendor's alarm e-mail commits with the exhausted state, or neither does.
      await runtime.db.prisma.$transaction(async (tx) => {
        await recordAttempts(tx, outcomes);
        await queueEndpointAlarms(tx, exhausted);
      });
  } catch (err) {
    // The leases run out and the deliveries are attempted again: at-least-once, never lost.
    runtime.logger.error({ err, count: outcomes.length }, "webhook outcomes not stored");
    return;
  }
  for (const o of outcomes) {
    webhookAttempts.inc({ outcome: o.status === "DELIVERED" ? "delivered" : o.status === "FAILED" ? "fatal" : "failed" });
    // The raw socket error lives here only: the delivery log shows the tenant its category.
    if (o.detail && o.status === "PENDING") {
      runtime.logger.info({ delivery_id: o.deliveryId, tenant_id: o.tenantId, attempt: o.attemptNo, error: o.error, detail: o.detail }, "webhook attempt failed");
    }
    if (o.status === "EXHAUSTED") {
      webhookExhausted.inc();
      runtime.logger.error(
        { delivery_id: o.deliveryId, tenant_id: o.tenantId, attempts: o.attemptNo, last_status: o.statusCode, last_error: o.error, detail: o.detail },
        "webhook delivery exhausted",
      );
    } else if (o.status === "FAILED") {
      runtime.logger.error({ delivery_id: o.deliveryId, tenant_id: o.tenantId, error: o.error, detail: o.detail }, "webhook delivery failed fatally");
    }
  }
}
