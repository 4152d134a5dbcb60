// Regression (bench/multi-instance.ts, 3 instances, 20k renewals on a starved host): the dispatcher
// freed an attempt's slot as soon as the receiver answered and went on claiming and sending while
// its outcome writes queued up. Outcomes stored after the 30 s lease had run out let another instance
// claim and send the same attempt again (6,817 duplicates of 20,000). An attempt now holds its slot
// until its outcome is stored, so a dispatcher whose writes are stuck stops claiming.
import { afterEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../core/runtime.ts";
import { wallClock } from "../../core/shared/clock.ts";
import { leasesFromEnv } from "../../core/shared/leases.ts";
import { createLogger } from "../../core/shared/logger.ts";
import type { ClaimedDelivery } from "../../core/webhooks/claim-deliveries.ts";
import { WebhookDispatcher } from "../../core/webhooks/dispatcher.ts";
import { Receiver } from "../helpers/webhook-receiver.ts";

/** A database whose claims hand out one fresh delivery each, and whose outcome writes wait for `release`. */
function fakeDb(url: string) {
  let claimed = 0;
  let stored = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const delivery = (): ClaimedDelivery => {
    const n = ++claimed;
    const now = new Date();
    return {
      id: `wd_${n}`,
      tenant_id: "tn_fake",
      event_id: `evt_${n}`,
      endpoint_id: "we_fake",
      attempt_count: 0,
      series_start: 0,
      due_at: now,
      type: "invoice.paid",
      data: {},
      event_created_at: now,
      event_recorded_at: now,
      url,
      secret: `whsec_${Buffer.alloc(32, 1).toString("base64")}`,
      previous_secret: null,
      previous_secret_expires_at: null,
      mode: "SANDBOX",
      clock_at: null,
    };
  };
  const prisma = {
    // Reached through direct-sql's fallback (a client it was not told about).
    $queryRawUnsafe: async () => [delivery()], // the claim
    // recordAttempts' one statement (its first parameter holds one attempt id per outcome).
    $executeRawUnsafe: async (_sql: string, ...values: unknown[]) => {
      await gate;
      stored += (values[0] as unknown[]).length;
      return (values[0] as unknown[]).length;
    },
  };
  return { db: { kind: "postgres", prisma, listen: async () => {} }, claimed: () => claimed, stored: () => stored, release: () => release() };
}

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

describe("webhook dispatcher back-pressure", () => {
  it("claims no more than its concurrency while outcomes wait to be stored, and goes on once they are", async () => {
    const rcv = await Receiver.start();
    receivers.push(rcv);
    const fake = fakeDb(rcv.url);
    const runtime = { db: fake.db, wallClock, logger: createLogger("silent"), leases: leasesFromEnv({}) } as unknown as Runtime;
    const dispatcher = new WebhookDispatcher(runtime, { concurrency: 4, perEndpoint: 4, flushMs: 1 });
    await dispatcher.start();
    // The poll (every second in production) and NOTIFYs keep kicking it.
    const poll = setInterval(() => dispatcher.kick(), 10);
    try {
      await rcv.waitFor((rs) => rs.length >= 4 && rs.every((r) => r.answered === 200));
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.claimed()).toBe(4);
      expect(rcv.requests).toHaveLength(4);

      fake.release();
      await rcv.waitFor((rs) => rs.length >= 12);
      expect(fake.stored()).toBeGreaterThanOrEqual(4);
    } finally {
      clearInterval(poll);
      await dispatcher.stop();
    }
    expect(fake.stored()).toBe(fake.claimed());
  });
});
