// The race itself: N clients at once, each a seeded random sequence of money and state routes on the
// drill's subscriptions, with and without Idempotency-Key, some replaying a key another client used.
import { get } from "../helpers/http.ts";
import { plusDays } from "../links/pay-helpers.ts";
import type { DrillSubscription, DrillWorld } from "./concurrency-setup.ts";
import { prng, type CallRecord, type Recorder } from "./drill-kit.ts";

export type Route = "charge-now" | "refund" | "change-plan" | "cancel" | "undo-cancel" | "reschedule";

interface Planned {
  route: Route;
  target: string;
  path: string;
  body: unknown;
}

const WEIGHTS: Record<Route, number> = { "charge-now": 22, refund: 20, "change-plan": 18, cancel: 14, "undo-cancel": 12, reschedule: 14 };

export async function race(world: DrillWorld, recorder: Recorder, opts: { seed: number; clients: number; steps: number }): Promise<void> {
  const keyPool: { key: string; plan: Planned }[] = [];
  const shared = prng(opts.seed);
  const hot = Array.from({ length: opts.steps }, () => shared.int(0, world.subs.length - 1));
  const client = async (c: number) => {
    const rng = prng(opts.seed * 1000 + c);
    for (let step = 0; step < opts.steps; step++) {
      let plan: Planned;
      let key: string | null = null;
      if (keyPool.length && rng.chance(0.12)) {
        // A replay: the very request another call sent under that key (possibly still in flight).
        ({ key, plan } = rng.pick(keyPool));
      } else {
        // Most calls of a step aim at that step's hot subscription, so clients collide on the same row.
        const sub = rng.chance(0.7) ? world.subs[hot[step]!]! : rng.pick(world.subs);
        plan = planCall(world, rng, sub, rng.weighted(WEIGHTS));
        if (rng.chance(0.4)) {
          key = `drill-${opts.seed}-${c}-${step}`;
          keyPool.push({ key, plan });
        }
      }
      const rec = await recorder.post({ client: c, step, route: plan.route, target: plan.target }, plan.path, world.t.writeKey, plan.body, key);
      await learnPayments(world, rec);
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, (_, c) => client(c)));
}

function planCall(world: DrillWorld, rng: ReturnType<typeof prng>, sub: DrillSubscription, route: Route): Planned {
  const base = `/v1/subscriptions/${sub.id}`;
  switch (route) {
    case "charge-now":
      return { route, target: sub.name, path: `${base}/charge-now`, body: undefined };
    case "undo-cancel":
      return { route, target: sub.name, path: `${base}/cancel/undo`, body: undefined };
    case "cancel": {
      const now = sub.mortal && rng.chance(0.25);
      return { route, target: sub.name, path: `${base}/cancel`, body: now ? { reason: "drill: now" } : { at_period_end: true, reason: `drill ${rng.int(1, 9)}` } };
    }
    case "reschedule":
      return { route, target: sub.name, path: `${base}/reschedule`, body: { next_billing_at: plusDays(world.clock, rng.int(3, 40) + rng.int(0, 1439) / 1440) } };
    case "change-plan": {
      const to = rng.weighted({ max: 4, lite: 3, yearly: 2, base: 3 });
      return { route, target: sub.name, path: `${base}/change-plan`, body: { offer_id: world.offers[to] } };
    }
    case "refund":
      return planRefund(sub, rng);
  }
}

function planRefund(sub: DrillSubscription, rng: ReturnType<typeof prng>): Planned {
  const [paymentId, amount] = rng.pick([...sub.payments.entries()]);
  const kind = rng.weighted({ partial: 5, courtesy: 2, revoke: sub.mortal ? 1 : 0 });
  const body =
    kind === "partial"
      ? { amount_cents: rng.int(1, Math.max(1, Math.floor(amount / 4))), reason: "drill: partial" }
      : kind === "courtesy"
        ? { amount_cents: amount, reason: "drill: courtesy", revoke: "none" }
        : { amount_cents: amount, reason: "drill: total" };
  return { route: "refund", target: sub.name, path: `/v1/payments/${paymentId}/refund`, body };
}

/** A call that may have paid something: the subscription's newest payment becomes a refund target too. */
async function learnPayments(world: DrillWorld, rec: CallRecord): Promise<void> {
  const paid = (rec.route === "charge-now" && /paid/.test(rec.json?.message ?? "")) || (rec.route === "change-plan" && rec.status === 200 && rec.json?.plan_change?.charge_cents > 0);
  if (!paid) return;
  const sub = world.subs.find((s) => s.name === rec.target)!;
  const res = await get(`/v1/subscriptions/${sub.id}`, world.t.readKey);
  const last = res.body?.last_payment;
  if (last && last.paid_amount_cents > 0) sub.payments.set(last.payment_id, last.amount_cents);
}
