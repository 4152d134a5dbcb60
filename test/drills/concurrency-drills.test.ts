// Concurrency drill: 50 clients race every money and state route (charge-now, refund,
// change-plan, cancel, undo-cancel, reschedule) on subscriptions in several starting states, with and
// without Idempotency-Key and with replays. Then: no 5xx, every answer one the contract lists, each
// subscription's state equal to its last event and its events on the transition table, no invoice
// paid twice, refunds summing up, and the sandbox gateway's ledger and call log matching our records
// exactly. On PostgreSQL (DATABASE_URL) the requests really run in parallel over the pool.
// DRILL_SEED replays a run's choices; DRILL_CLIENTS and DRILL_STEPS resize it.
import { describe, expect, it } from "vitest";
import { subscription } from "../helpers/billing.ts";
import { testService } from "../helpers/service.ts";
import { race } from "./concurrency-race.ts";
import { buildWorld } from "./concurrency-setup.ts";
import { Checker, checkAnswers, checkLedger, checkSubscriptions, snapshot } from "./concurrency-invariants.ts";
import { drillSeed, figuresTable, Recorder } from "./drill-kit.ts";

const CLIENTS = Number(process.env.DRILL_CLIENTS ?? 50);
// PGlite runs one statement at a time: fewer steps there keep the file within a minute on a busy 2-core machine.
const STEPS = Number(process.env.DRILL_STEPS ?? (process.env.DATABASE_URL ? 8 : 6));

describe("concurrency drill", () => {
  it(`${CLIENTS} clients race charge-now, refund, change-plan, cancel, undo and reschedule; the end state is consistent`, { timeout: 120_000 }, async () => {
    const seed = drillSeed();
    const db = (await testService()).runtime.db.kind;
    console.log(`concurrency drill: seed ${seed} (DRILL_SEED=${seed} replays the choices), ${db}, ${CLIENTS} clients x ${STEPS} steps`);
    const setupStarted = performance.now();
    const world = await buildWorld();
    const before = await snapshot(world);
    const setup = performance.now() - setupStarted;
    const recorder = new Recorder();
    const started = performance.now();
    await race(world, recorder, { seed, clients: CLIENTS, steps: STEPS });
    const raced = performance.now() - started;

    const checksStarted = performance.now();
    const k = new Checker();
    checkAnswers(k, recorder);
    await checkSubscriptions(k, world, recorder, before);
    const ledger = await checkLedger(k, world, recorder, before);
    const checks = performance.now() - checksStarted;
    const finals = await Promise.all(world.subs.map(async (s) => `${s.name}=${(before.statuses.get(s.id) as any).status}->${(await subscription(world.t, s.id)).status}`));
    console.log(
      figuresTable(`concurrency drill (${db}, seed ${seed})`, recorder, {
        "requests": recorder.calls.length,
        "race duration": `${(raced / 1000).toFixed(1)} s (${((recorder.calls.length * 1000) / raced).toFixed(0)} req/s)`,
        "setup / checks duration": `${(setup / 1000).toFixed(1)} s / ${(checks / 1000).toFixed(1)} s`,
        "charge_card calls in the race (= attempts)": ledger.chargeCalls,
        "approved charges in the race": ledger.approvedCharges,
        "refund calls (= refunds)": ledger.refundCalls,
        "fetch_status calls": ledger.statusCalls,
        "gateway money in/out (cents)": `${ledger.chargedCents} / ${ledger.refundedCents}`,
        "invariants checked": k.checked,
        "invariants failed": k.failures.length,
        "subscriptions": finals.join(" "),
      }),
    );
    for (const story of k.stories) console.log(story);
    expect(k.failures).toEqual([]);
  });
});
