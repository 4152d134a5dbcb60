// Crash drills: the real service is SIGKILLed at random points during a billing pass, a
// refund, a plan change with proration and webhook delivery; restarted on the same database; driven
// to recovery (jobs, advanceClock); then checked: no payment charged twice at the gateway adapter,
// no event lost, every subscription in a state the transition table allows, the outbox drained.
// Kill points: a seeded PRNG picks, per trial, either a named fault point and hit number
// (CRASH_AT_FILE, core/shared/crash-faults.ts) or a wall-clock delay after firing the operation.
// CRASH_DRILL_SEED replays a run; CRASH_DRILL_TRIALS sets the trials per operation (default 8).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchPgDatabase, type ScratchDb } from "../helpers/child-service.ts";
import { DrillDb } from "./drill-checks.ts";
import { billingPass, planChange, refund, webhookDelivery, type Ctx, type Op } from "./drill-ops.ts";
import { DrillReceiver } from "./drill-receiver.ts";
import { DrillService } from "./drill-service.ts";
import { mulberry32 } from "../helpers/prng.ts";

const SEED = Number(process.env.CRASH_DRILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TRIALS = Number(process.env.CRASH_DRILL_TRIALS ?? 8);
const PG = Boolean(process.env.DATABASE_URL);

interface Figures {
  trials: number;
  pointKills: number;
  delayKills: number;
  /** Kills that landed while the operation was still running (not after its answer). */
  midOperation: number;
  recoveries: number;
  byJobs: number;
  charges: number;
  refunds: number;
  events: number;
  ms: number;
  points: string[];
}
const figures = new Map<string, Figures>();

let scratch: ScratchDb;
let svc: DrillService;
let db: DrillDb;
let receiver: DrillReceiver;
let trialNo = 0;
const rng = mulberry32(SEED);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runTrial(op: Op, f: Figures): Promise<void> {
  const ctx: Ctx = { svc, db, receiver, rng, trial: ++trialNo };
  const tSetup = Date.now();
  const s = await op.setup(ctx);
  const setupMs = Date.now() - tSetup;
  const tenantId = s.tenant.tenantId;
  // The kill point: a named fault point at its nth hit, or a random delay after firing.
  const byPoint = rng() < 0.65;
  const aim = op.killPoints[Math.floor(rng() * op.killPoints.length)]!;
  const nth = 1 + Math.floor(rng() * aim.max);
  const delay = Math.floor(rng() * op.maxDelayMs);
  let label = byPoint ? `${aim.point}#${nth}` : `+${delay}ms`;
  if (byPoint) svc.arm(aim.point, nth);
  let answered = false;
  const fired = op.fire(ctx, s).then(
    () => (answered = true),
    () => undefined, // the connection dies with the process
  );
  if (byPoint) {
    // The point may be hit after the answer (webhooks go out after commit): a grace period, then kill anyway.
    await Promise.race([svc.exited(), fired.then(() => sleep(400))]);
  } else {
    await Promise.race([svc.exited(), sleep(delay)]);
  }
  const diedAtPoint = !svc.alive();
  if (byPoint && !diedAtPoint) label += " (not reached)";
  await svc.kill();
  await fired;
  if (!answered) f.midOperation++;
  if (byPoint && diedAtPoint) f.pointKills++;
  else f.delayKills++;

  const tRestart = Date.now();
  await svc.restart();
  const restartMs = Date.now() - tRestart;
  // Recovery: odd trials leave it to the jobs first (reconcile-payments, billing-run, the webhook
  // dispatcher) for a few seconds; then, or at once, advanceClock on the tenant (billing pass,
  // refund reconciliation, due webhook retries), until nothing is left unsettled.
  const started = Date.now();
  const jobsFirst = ctx.trial % 2 === 1;
  let left: string[] = await db.unsettled(tenantId);
  let byJobs = true;
  while (left.length) {
    if (Date.now() - started > 30_000) throw new Error(`trial ${ctx.trial} (${op.name}, ${label}): not recovered in 30 s: ${left.join(", ")}\n${svc.child.output()}`);
    if (!jobsFirst || Date.now() - started > 4_000) {
      byJobs = false;
      await svc.advanceClock(tenantId, s.target);
    } else await sleep(200);
    left = await db.unsettled(tenantId);
  }
  f.recoveries++;
  if (byJobs) f.byJobs++;
  const result = await db.check(tenantId, (url) => receiver.delivered(new URL(url).pathname));
  const violations = [...result.violations, ...(await op.expect(ctx, s))];
  f.charges += result.charges;
  f.refunds += result.refunds;
  f.events += result.events;
  f.points.push(label);
  console.log(`[drill] trial ${ctx.trial} ${op.name}: kill ${label}${answered ? " after the answer" : ""}; setup ${setupMs} ms, restart ${restartMs} ms, recovered in ${Date.now() - started} ms${byJobs ? " by the jobs" : ""}; ${violations.length} violations`);
  expect(violations, `trial ${ctx.trial} (${op.name}, kill ${label}, seed ${SEED}) tenant ${tenantId}`).toEqual([]);
}

describe.skipIf(!PG)("crash drills (SIGKILL, restart, recover, check)", () => {
  beforeAll(async () => {
    console.log(`[drill] seed ${SEED} (CRASH_DRILL_SEED=${SEED} replays the kill points), ${TRIALS} trials per operation`);
    scratch = await scratchPgDatabase("billing_drill");
    receiver = await DrillReceiver.start();
    svc = await DrillService.start(scratch.url);
    db = await DrillDb.open(scratch.url);
  });

  afterAll(async () => {
    await svc?.close();
    await db?.close();
    await receiver?.stop();
    await scratch?.drop();
    const rows = [...figures.entries()];
    const total = rows.reduce((a, [, f]) => a + f.trials, 0);
    const line = (c: (string | number)[]) => c.map((x, i) => String(x).padEnd(i === 0 ? 18 : 9)).join("");
    console.log(
      [
        `crash drill figures (seed ${SEED}, ${total} trials, ${svc?.starts ?? 0} process starts)`,
        line(["operation", "trials", "kills", "at point", "by delay", "mid-op", "recov.", "by jobs", "charges", "refunds", "events", "time s"]),
        ...rows.map(([name, f]) =>
          line([name, f.trials, f.pointKills + f.delayKills, f.pointKills, f.delayKills, f.midOperation, f.recoveries, f.byJobs, f.charges, f.refunds, f.events, (f.ms / 1000).toFixed(1)]),
        ),
        ...rows.map(([name, f]) => `  ${name} kill points: ${f.points.join(", ")}`),
      ].join("\n"),
    );
  });

  for (const op of [billingPass, refund, planChange, webhookDelivery]) {
    it(`${op.name}: ${TRIALS} SIGKILLs at random points, then every property holds`, { timeout: 300_000 }, async () => {
      const f: Figures = { trials: 0, pointKills: 0, delayKills: 0, midOperation: 0, recoveries: 0, byJobs: 0, charges: 0, refunds: 0, events: 0, ms: 0, points: [] };
      figures.set(op.name, f);
      const t0 = Date.now();
      try {
        for (let i = 0; i < TRIALS; i++) {
          f.trials++;
          await runTrial(op, f);
        }
      } finally {
        f.ms = Date.now() - t0;
      }
    });
  }
});

// PGlite keeps one process per data directory: the checker (and a restarted child) cannot read it
// while the child runs, so the drills need a PostgreSQL server.
it.skipIf(PG)("crash drills: skipped on PGlite (the drill reads the child's database while it runs; a PGlite data directory admits one process): set DATABASE_URL", () => {});
