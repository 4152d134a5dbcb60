// Soak: `main.ts` children (test/helpers/child-service.ts), one per entry of `--roles` (default `all`:
// one process serving the API and running the billing run and webhook delivery; e.g. `api,api,jobs`
// for a split deployment) on one scratch PostgreSQL database, requests spread round-robin over the
// instances that serve HTTP, as a load balancer would,
// driven for N minutes by an open-loop load generator: requests leave on a fixed schedule (`--rate`
// per second), whatever the answers are doing, and latency counts from the scheduled instant (no
// coordinated omission). The mix is what a tenant's backend and its customers send (weights below:
// 85% reads, 15% writes of which 4% hosted checkouts, i.e. 8 sales/s at 200 req/s): entitlements,
// subscription pages and reads, events, customer payments, hosted checkouts (card and Pix, JSON),
// refunds, cancel at period end and its undo, scheduled downgrades and their cancellation, payment
// links, and a deliberate 409 (payment link without an open invoice). Every request names the status
// it expects; anything else, a 5xx or a transport error is an error.
// Meanwhile the billing run and webhook delivery work as deployed: the SANDBOX tenant runs on the
// wall clock (clock_at NULL) and `--renewals-per-minute` seeded card subscriptions fall due in every
// minute of the run, so the minute cron renews them; every event goes to a loopback receiver
// (bench/webhook-receiver.ts, a child process).
// Printed per minute: requests, errors, p50/p99 latency, the service's RSS (VmRSS) at the minute's end,
// renewals and deliveries. At the end: totals, RSS growth from the peak of the first (warm-up) minute
// to rest once the load has drained (must stay under 10%), renewals due vs done, deliveries. Exit 1 on any error, an
// undelivered event, a missed renewal or RSS growth >= 10%.
//
// npm run soak -- [--minutes 20] [--rate 200] [--renewals-per-minute 200] [--seed 1] [--roles all]
// Env: BENCH_PG_URL (else DATABASE_URL, else postgresql://postgres@127.0.0.1:5432): the server; the
//      scratch database soak_<pid>_0 is dropped at the end.
import os from "node:os";
import { parseArgs } from "node:util";
import { openDb, type Db } from "../prisma/client.ts";
import { createPlan } from "../core/catalog/create-plan.ts";
import { createOffer } from "../core/catalog/create-offer.ts";
import { createApiKey } from "../core/tenants/create-api-key.ts";
import { createWebhookEndpoint } from "../core/webhooks/create-webhook-endpoint.ts";
import { scratchPgDatabase, startChildService, type ChildService } from "../test/helpers/child-service.ts";
import { mulberry32 } from "../test/helpers/prng.ts";
import { seedDue } from "./harness.ts";
import { errorLines, rssMb, exitWith, tearDown, verdict } from "./service-probes.ts";
import { Receivers } from "./webhook-receiver.ts";

const MINUTE_MS = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;
const RSS_GROWTH_LIMIT = 0.1;
/** Checkouts made before the load starts, so the write operations have subscriptions to act on. */
const PRIMED_CHECKOUTS = 40;

// --- what the load acts on ---------------------------------------------------------------------------

interface Ctx {
  /** One base URL per instance; requests go round-robin, as behind a load balancer. */
  bases: string[];
  next: number;
  read: string;
  write: string;
  offerPro: string;
  offerBasic: string;
  /** Customers' external ids (seeded and born at checkout). */
  customers: string[];
  /** Subscription ids to read. */
  subscriptions: string[];
  /** Checkout-born card subscriptions by state; one write at a time per subscription. */
  plain: string[];
  canceling: string[];
  downgrading: string[];
  /** Checkout customers whose payments were not looked up yet, and card payments not refunded yet. */
  unlisted: string[];
  refundable: string[];
  pageCursor: string | null;
  checkouts: number;
  rand: () => number;
}


const pick = <T>(ctx: Ctx, list: T[]): T => list[Math.floor(ctx.rand() * list.length)]!;
/** Takes a random element out of the list (the caller puts it back into the next state's list). */
function take(ctx: Ctx, list: string[]): string | undefined {
  if (list.length === 0) return undefined;
  const i = Math.floor(ctx.rand() * list.length);
  const [v] = list.splice(i, 1);
  return v;
}

/** An operation on one id of `list`, taken for the request's duration and then put back. */
function borrow(ctx: Ctx, list: string[], request: (id: string) => Promise<{ expect: number; got: Sent }>): (() => Promise<{ expect: number; got: Sent }>) | null {
  const id = take(ctx, list);
  if (!id) return null;
  return async () => {
    try {
      return await request(id);
    } finally {
      list.push(id);
    }
  };
}

// --- requests ------------------------------------------------------------------------------------------

interface Sent {
  status: number;
  body: any;
}

async function send(ctx: Ctx, method: "GET" | "POST", path: string, key: string | null, body?: unknown): Promise<Sent> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const base = ctx.bases[ctx.next++ % ctx.bases.length]!;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/** One operation: its label, the status it expects, and what it does with the answer. */
interface Op {
  name: string;
  weight: number;
  /** null: nothing to act on now (the generator sends a read instead). */
  run(ctx: Ctx): null | (() => Promise<{ expect: number; got: Sent }>);
}

function checkoutBody(ctx: Ctx, method: "card" | "pix") {
  const n = ++ctx.checkouts;
  const ext = `soak-${process.pid}-${n}`;
  return {
    ext,
    body: {
      external_id: ext,
      name: `Soak Customer ${n}`,
      email: `${ext}@example.com`,
      phone: "11987654321",
      doc: "52998224725",
      method,
      ...(method === "card" ? { card_holder: "SOAK CUSTOMER", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" } : {}),
    },
  };
}

async function cardCheckout(ctx: Ctx): Promise<{ expect: number; got: Sent }> {
  const { ext, body } = checkoutBody(ctx, "card");
  const got = await send(ctx, "POST", `/checkout/${ctx.offerPro}`, null, body);
  if (got.status === 201 && got.body?.subscription_id) {
    ctx.customers.push(ext);
    ctx.subscriptions.push(got.body.subscription_id);
    ctx.plain.push(got.body.subscription_id);
    ctx.unlisted.push(ext);
  }
  return { expect: 201, got };
}

/** A write on one subscription that moves it from one state list to another when it succeeds. */
function transition(from: keyof Pick<Ctx, "plain" | "canceling" | "downgrading">, to: keyof Pick<Ctx, "plain" | "canceling" | "downgrading">, path: (id: string) => string, body: (ctx: Ctx) => unknown): Op["run"] {
  return (ctx) => {
    const id = take(ctx, ctx[from]);
    if (!id) return null;
    return async () => {
      // A transport error leaves the subscription's state unknown: it is dropped from the writes' lists.
      const got = await send(ctx, "POST", path(id), ctx.write, body(ctx));
      (got.status === 200 ? ctx[to] : ctx[from]).push(id);
      return { expect: 200, got };
    };
  };
}

const OPS: Op[] = [
  { name: "GET /v1/entitlements", weight: 40, run: (ctx) => async () => ({ expect: 200, got: await send(ctx, "GET", `/v1/entitlements?external_id=${encodeURIComponent(pick(ctx, ctx.customers))}`, ctx.read) }) },
  {
    name: "GET /v1/subscriptions (page)",
    weight: 8,
    run: (ctx) => async () => {
      const got = await send(ctx, "GET", `/v1/subscriptions?limit=50${ctx.pageCursor ? `&after=${encodeURIComponent(ctx.pageCursor)}` : ""}`, ctx.read);
      if (got.status === 200) ctx.pageCursor = got.body?.next ?? null;
      return { expect: 200, got };
    },
  },
  { name: "GET /v1/subscriptions/{id}", weight: 16, run: (ctx) => async () => ({ expect: 200, got: await send(ctx, "GET", `/v1/subscriptions/${pick(ctx, ctx.subscriptions)}`, ctx.read) }) },
  { name: "GET /v1/events", weight: 6, run: (ctx) => async () => ({ expect: 200, got: await send(ctx, "GET", `/v1/events?limit=20`, ctx.read) }) },
  {
    name: "GET /v1/customers/{ext}/payments",
    weight: 8,
    run: (ctx) => async () => {
      const fresh = take(ctx, ctx.unlisted);
      const ext = fresh ?? pick(ctx, ctx.customers);
      const got = await send(ctx, "GET", `/v1/customers/${encodeURIComponent(ext)}/payments`, ctx.read);
      if (fresh && got.status === 200) {
        for (const p of (got.body?.results ?? []) as { payment_id: string; status: string; method: string }[]) {
          if (p.status === "paid" && p.method === "card") ctx.refundable.push(p.payment_id);
        }
      }
      return { expect: 200, got };
    },
  },
  { name: "POST /checkout/{offer} card", weight: 3, run: (ctx) => () => cardCheckout(ctx) },
  {
    name: "POST /checkout/{offer} pix",
    weight: 1,
    run: (ctx) => async () => {
      const { ext, body } = checkoutBody(ctx, "pix");
      const got = await send(ctx, "POST", `/checkout/${ctx.offerPro}`, null, body);
      if (got.status === 201 && got.body?.subscription_id) {
        ctx.customers.push(ext);
        ctx.subscriptions.push(got.body.subscription_id);
      }
      return { expect: 201, got };
    },
  },
  {
    name: "POST /v1/payments/{id}/refund",
    weight: 2,
    run: (ctx) => {
      const id = take(ctx, ctx.refundable);
      if (!id) return null;
      return async () => ({ expect: 200, got: await send(ctx, "POST", `/v1/payments/${id}/refund`, ctx.write, { amount_cents: 100, reason: "soak courtesy", revoke: "none" }) });
    },
  },
  { name: "POST /v1/subscriptions/{id}/cancel", weight: 2, run: transition("plain", "canceling", (id) => `/v1/subscriptions/${id}/cancel`, () => ({ at_period_end: true, reason: "soak" })) },
  { name: "POST /v1/subscriptions/{id}/cancel/undo", weight: 2, run: transition("canceling", "plain", (id) => `/v1/subscriptions/${id}/cancel/undo`, () => ({})) },
  { name: "POST /v1/subscriptions/{id}/change-plan", weight: 1, run: transition("plain", "downgrading", (id) => `/v1/subscriptions/${id}/change-plan`, (ctx) => ({ offer_id: ctx.offerBasic })) },
  { name: "POST /v1/subscriptions/{id}/cancel-plan-change", weight: 1, run: transition("downgrading", "plain", (id) => `/v1/subscriptions/${id}/cancel-plan-change`, () => ({})) },
  {
    name: "POST /v1/subscriptions/{id}/payment-method-link",
    weight: 2,
    run: (ctx) => borrow(ctx, ctx.plain, async (id) => ({ expect: 201, got: await send(ctx, "POST", `/v1/subscriptions/${id}/payment-method-link`, ctx.write, {}) })),
  },
  {
    name: "GET /v1/subscriptions/{id}/payment-link (409)",
    weight: 2,
    // A paid-up card subscription has no open invoice: 409 is the right answer, and the expected one.
    run: (ctx) => borrow(ctx, ctx.plain, async (id) => ({ expect: 409, got: await send(ctx, "GET", `/v1/subscriptions/${id}/payment-link`, ctx.read) })),
  },
];
const FALLBACK = OPS[0]!;
const TOTAL_WEIGHT = OPS.reduce((s, o) => s + o.weight, 0);

function chooseOp(ctx: Ctx): { op: Op; go: () => Promise<{ expect: number; got: Sent }> } {
  let r = ctx.rand() * TOTAL_WEIGHT;
  let op = OPS[OPS.length - 1]!;
  for (const o of OPS) {
    if ((r -= o.weight) < 0) {
      op = o;
      break;
    }
  }
  const go = op.run(ctx);
  if (go) return { op, go };
  return { op: FALLBACK, go: FALLBACK.run(ctx)! };
}

// --- measuring -------------------------------------------------------------------------------------------

interface Minute {
  requests: number;
  errors: number;
  latencies: number[];
  late: number;
  rssEndMb: number;
  rssByInstance: number[];
  renewed: number;
  delivered: number;
}

interface ErrorSample {
  op: string;
  detail: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// --- set-up --------------------------------------------------------------------------------------------

/** The soak tenant: seeded due subscriptions spread over the run, offers, keys without rate limits, an endpoint. */
async function setUp(db: Db, o: { minutes: number; perMinute: number; receiverUrl: string; startAt: number }) {
  const renewals = o.minutes * o.perMinute;
  const tenantId = await seedDue(db, renewals, { mode: "SANDBOX", name: "soak" });
  // Spread the due instants: perMinute of them in each minute of the run, evenly.
  await db.sql.query(
    `WITH s AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM subscriptions WHERE tenant_id = $1),
          d AS (SELECT id, ($2::timestamptz AT TIME ZONE 'UTC') + (i * interval '1 millisecond' * $3) AS due FROM s)
     UPDATE subscriptions x SET next_billing_at = d.due, current_period_end = d.due,
            current_period_start = d.due - interval '1 month', anchor_day = extract(day FROM d.due)::int
     FROM d WHERE x.id = d.id`,
    [tenantId, new Date(o.startAt).toISOString(), MINUTE_MS / o.perMinute],
  );
  await db.prisma.tenant.update({ where: { id: tenantId }, data: { readRateLimit: 1_000_000, writeRateLimit: 1_000_000 } });
  const seeded = await db.prisma.offer.findFirstOrThrow({ where: { tenantId }, include: { plan: true } });
  const pro = await createOffer(db.prisma, {
    tenantId,
    planId: seeded.planId,
    name: "Pro monthly, card or Pix",
    interval: "MONTH",
    priceCents: 4990,
    currency: "brl",
    gateway: "sandbox",
    collectionMethods: ["CARD_AUTO", "PIX_MANUAL"],
    trialDays: 0,
  });
  const basicPlan = await createPlan(db.prisma, { tenantId, productId: seeded.plan.productId, name: "Basic", entitlements: { seats: 1 } });
  const basic = await createOffer(db.prisma, {
    tenantId,
    planId: basicPlan.id,
    name: "Basic monthly",
    interval: "MONTH",
    priceCents: 1990,
    currency: "brl",
    gateway: "sandbox",
    collectionMethods: ["CARD_AUTO", "PIX_MANUAL"],
    trialDays: 0,
  });
  const read = (await createApiKey(db.prisma, { tenantId, scope: "READ" })).key;
  const write = (await createApiKey(db.prisma, { tenantId, scope: "WRITE" })).key;
  await createWebhookEndpoint(db.prisma, { tenantId, url: o.receiverUrl, events: [] });
  await db.sql.exec("ANALYZE");
  const subs = (await db.sql.query(`SELECT s.id, c.external_id FROM subscriptions s JOIN customers c ON c.id = s.customer_id WHERE s.tenant_id = $1`, [tenantId])) as unknown as {
    id: string;
    external_id: string;
  }[];
  return { tenantId, renewals, read, write, offerPro: pro.id, offerBasic: basic.id, subs };
}

// --- the run ---------------------------------------------------------------------------------------------

export async function main(argv: string[] = []): Promise<boolean> {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: "string", default: "20" },
      rate: { type: "string", default: "200" },
      "renewals-per-minute": { type: "string", default: "200" },
      seed: { type: "string", default: "1" },
      roles: { type: "string", default: "all" },
    },
  });
  const minutes = Number(values.minutes);
  const rate = Number(values.rate);
  const perMinute = Number(values["renewals-per-minute"]);
  const roles = values.roles!.split(",").map((r) => r.trim()) as ("api" | "jobs" | "all")[];
  const serving = roles.filter((r) => r !== "jobs").length;
  const working = roles.filter((r) => r !== "api").length;
  if (!roles.every((r) => ["api", "jobs", "all"].includes(r)) || !serving || !working) throw new Error("--roles: api|jobs|all, at least one serving HTTP and one running jobs");
  if (![minutes, rate, perMinute].every((v) => Number.isSafeInteger(v) && v > 0) || minutes < 2) {
    throw new Error("usage: soak.ts [--minutes 20 (>= 2)] [--rate 200] [--renewals-per-minute 200] [--seed 1] [--roles all]");
  }

  const scratch = await scratchPgDatabase("soak");
  const db = await openDb({ url: scratch.url, poolSize: 2 });
  const children: ChildService[] = [];
  let receivers: Receivers | undefined;
  try {
    console.log(`== soak: ${minutes} min of mixed traffic at ${rate} req/s (open loop) on main.ts --role ${roles.join(" + ")}, PostgreSQL ==`);
    console.log(`host: ${os.cpus().length} cores shared with other work (load ${os.loadavg()[0]!.toFixed(2)}); the load generator runs on the same host: figures are noisy`);
    receivers = await Receivers.start([{ stallMs: 0, expect: Number.MAX_SAFE_INTEGER }]);
    // Renewals start falling due a little after the load starts (set-up and child start take a few seconds).
    const setUpStart = Date.now();
    const s = await setUp(db, { minutes, perMinute, receiverUrl: receivers.urls[0]!, startAt: setUpStart + 20_000 });
    // One at a time: the first migrates the scratch database.
    for (const role of roles) children.push(await startChildService({ databaseUrl: scratch.url, role }));
    const pids = children.map((c) => c.proc.pid!);
    console.log(`seeded ${s.renewals} card subscriptions falling due ${perMinute}/min over the run; service pids ${pids.join(", ")}, ready ${((Date.now() - setUpStart) / 1000).toFixed(1)} s after set-up began`);

    const ctx: Ctx = {
      bases: children.filter((_, i) => roles[i] !== "jobs").map((c) => c.baseUrl),
      next: 0,
      read: s.read,
      write: s.write,
      offerPro: s.offerPro,
      offerBasic: s.offerBasic,
      customers: s.subs.map((r) => r.external_id),
      subscriptions: s.subs.map((r) => r.id),
      plain: [],
      canceling: [],
      downgrading: [],
      unlisted: [],
      refundable: [],
      pageCursor: null,
      checkouts: 0,
      rand: mulberry32(Number(values.seed)), // a reproducible mix for one --seed
    };
    for (let i = 0; i < PRIMED_CHECKOUTS; i++) {
      const r = await cardCheckout(ctx);
      if (r.got.status !== 201) throw new Error(`priming checkout answered ${r.got.status}: ${JSON.stringify(r.got.body)}`);
    }

    const perMinuteStats: Minute[] = Array.from({ length: minutes }, () => ({ requests: 0, errors: 0, latencies: [], late: 0, rssEndMb: Number.NaN, rssByInstance: [], renewed: 0, delivered: 0 }));
    const byOp = new Map<string, { n: number; errors: number }>();
    const errors: ErrorSample[] = [];
    const inflight = new Set<Promise<void>>();
    const intervalMs = 1000 / rate;
    const total = Math.round(rate * minutes * 60);
    // Per minute from the database (a jobs instance serves no /metrics): recurring payments paid
    // (renewals and card checkouts) and webhook deliveries done.
    const work = async () => {
      const [r] = (await db.sql.query(
        `SELECT (SELECT count(*)::int FROM payments WHERE tenant_id = $1 AND kind = 'RECURRING' AND status = 'PAID') AS renewed,
                (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'DELIVERED') AS delivered`,
        [s.tenantId],
      )) as unknown as { renewed: number; delivered: number }[];
      return r!;
    };
    let lastWork = await work();
    console.log(`\n${"minute".padEnd(8)}${"requests".padStart(9)}${"errors".padStart(8)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"max ms".padStart(8)}${"late".padStart(6)}${"RSS MB".padStart(8)}${"paid".padStart(10)}${"deliveries".padStart(11)}`);

    const closeMinute = async (m: number) => {
      const st = perMinuteStats[m]!;
      st.rssByInstance = pids.map((pid) => rssMb(pid));
      if (m === 0) {
        clearInterval(warmSampler);
        sampleWarm();
      }
      st.rssEndMb = st.rssByInstance.reduce((a, b) => a + b, 0);
      const now = await work().catch(() => lastWork);
      st.renewed = now.renewed - lastWork.renewed;
      st.delivered = now.delivered - lastWork.delivered;
      lastWork = now;
      const lat = [...st.latencies].sort((a, b) => a - b);
      console.log(
        `${String(m + 1).padEnd(8)}${String(st.requests).padStart(9)}${String(st.errors).padStart(8)}${percentile(lat, 50).toFixed(0).padStart(8)}${percentile(lat, 99).toFixed(0).padStart(8)}${(lat.at(-1) ?? Number.NaN).toFixed(0).padStart(8)}${String(st.late).padStart(6)}${st.rssEndMb.toFixed(0).padStart(8)}${String(st.renewed).padStart(10)}${String(st.delivered).padStart(11)}`,
      );
    };

    // The warm-up baseline is each instance's peak RSS over the warm-up minute (sampled every second),
    // not one sample at its end: that one can land in a GC trough (302 MB in one CI run where the
    // same minute ends near 400 MB in others) and turn the heap's normal settling into "growth".
    const warmPeak = pids.map(() => 0);
    const sampleWarm = () => pids.forEach((pid, i) => (warmPeak[i] = Math.max(warmPeak[i]!, rssMb(pid))));
    const warmSampler = setInterval(sampleWarm, 1_000);

    const t0 = performance.now();
    let closed = 0;
    for (let k = 0; k < total; k++) {
      const at = t0 + k * intervalMs;
      const minute = Math.min(minutes - 1, Math.floor((at - t0) / MINUTE_MS));
      while (closed < minute) await closeMinute(closed++);
      const wait = at - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const st = perMinuteStats[minute]!;
      // More than 50 ms behind the schedule: the generator itself is starved (reported, not hidden).
      if (performance.now() - at > 50) st.late++;
      const { op, go } = chooseOp(ctx);
      const opStat = byOp.get(op.name) ?? { n: 0, errors: 0 };
      byOp.set(op.name, opStat);
      const p: Promise<void> = go()
        .then(({ expect, got }) => {
          if (got.status !== expect) throw new Error(`expected ${expect}, got ${got.status}: ${JSON.stringify(got.body).slice(0, 300)}`);
        })
        .catch((err: Error) => {
          st.errors++;
          opStat.errors++;
          const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
          if (errors.length < 20) errors.push({ op: op.name, detail: `${err.message ?? err}${cause ? ` (${cause.code ?? cause.message})` : ""}` });
        })
        .finally(() => {
          st.requests++;
          opStat.n++;
          st.latencies.push(performance.now() - at);
          inflight.delete(p);
        });
      inflight.add(p);
    }
    await Promise.all(inflight);
    while (closed < minutes) await closeMinute(closed++);
    const loadSeconds = (performance.now() - t0) / 1000;

    // After the load: the renewals that fell due must be done, and every event delivered.
    const dueBefore = new Date();
    await db.sql.exec("ANALYZE invoices, payments, subscriptions, events, webhook_deliveries");
    const settle = async () => {
      const [row] = (await db.sql.query(
        `SELECT (SELECT count(*)::int FROM subscriptions WHERE tenant_id = $1 AND next_billing_at <= $2) AS "dueLeft",
                (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = $1) AS deliveries,
                (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'DELIVERED') AS delivered,
                (SELECT count(*)::int FROM invoices i JOIN payments p ON p.invoice_id = i.id
                  WHERE i.tenant_id = $1 AND i.kind = 'CYCLE' AND p.kind = 'RECURRING' AND p.status = 'PAID') AS renewed`,
        [s.tenantId, dueBefore],
      )) as unknown as { dueLeft: number; deliveries: number; delivered: number; renewed: number }[];
      return row!;
    };
    let end = await settle();
    // The minute cron may still owe one pass; deliveries finish within seconds.
    for (let i = 0; i < 90 && (end.dueLeft > 0 || end.delivered < end.deliveries); i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      end = await settle();
    }
    // RSS once the load has drained (every request answered, renewals and deliveries done): the end of
    // the last minute still holds that minute's backlog in flight, which is load, not growth.
    const atRest = pids.map((pid) => rssMb(pid));
    const report = await receivers.collect();
    const events = (await db.sql.query(`SELECT id FROM events WHERE tenant_id = $1`, [s.tenantId])) as unknown as { id: string }[];
    const seen = new Set(report.endpoints[0]!.arrivals.map(([id]) => id));
    const missing = events.filter((e) => !seen.has(e.id)).length;
    const serviceErrors = children.flatMap((c) => errorLines(c.output()));

    const all = perMinuteStats.flatMap((m) => m.latencies).sort((a, b) => a - b);
    const requests = perMinuteStats.reduce((n, m) => n + m.requests, 0);
    const errorCount = perMinuteStats.reduce((n, m) => n + m.errors, 0);
    const late = perMinuteStats.reduce((n, m) => n + m.late, 0);
    const warm = perMinuteStats[0]!.rssEndMb;
    const last = perMinuteStats[minutes - 1]!.rssEndMb;
    // Each instance on its own: one leaking process must not hide behind another shrinking.
    const growths = pids.map((_, i) => (atRest[i]! - warmPeak[i]!) / warmPeak[i]!);
    const growth = Math.max(...growths);

    console.log(`\n== per operation ==`);
    for (const [name, st] of [...byOp.entries()].sort((a, b) => b[1].n - a[1].n)) console.log(`${String(st.n).padStart(8)}  ${String(st.errors).padStart(5)} errors  ${name}`);
    for (const e of errors) console.log(`  error: ${e.op}: ${e.detail}`);
    for (const line of serviceErrors.slice(0, 5)) console.log(`  service error log: ${line.slice(0, 300)}`);

    console.log(`\n== totals ==`);
    console.log(`requests           ${requests} in ${loadSeconds.toFixed(0)} s (${(requests / loadSeconds).toFixed(1)} req/s; ${late} sent > 50 ms behind schedule)`);
    console.log(`latency            p50 ${percentile(all, 50).toFixed(0)} ms, p99 ${percentile(all, 99).toFixed(0)} ms, max ${(all.at(-1) ?? Number.NaN).toFixed(0)} ms (from the scheduled instant)`);
    console.log(`errors             ${errorCount} (5xx, transport, or a status the request did not expect); service error log lines ${serviceErrors.length}`);
    console.log(`RSS (all instances) ${warm.toFixed(0)} MB at the end of the warm-up minute (peak in it ${warmPeak.reduce((a, b) => a + b, 0).toFixed(0)} MB), ${last.toFixed(0)} MB at the end of the last minute (under load), ${atRest.reduce((a, b) => a + b, 0).toFixed(0)} MB at rest; growth at rest per instance ${growths.map((g) => `${(g * 100).toFixed(1)}%`).join(", ")}; largest ${(growth * 100).toFixed(1)}% (limit < ${RSS_GROWTH_LIMIT * 100}%)`);
    console.log(`renewals           ${end.renewed} paid renewals of seeded subscriptions; ${end.dueLeft} due and not renewed`);
    console.log(`webhooks           ${end.delivered} of ${end.deliveries} deliveries DELIVERED; ${events.length - missing} of ${events.length} events reached the receiver (${report.endpoints[0]!.duplicates} duplicates)`);

    const results: [string, boolean][] = [
      ["zero errors", errorCount === 0],
      ["no error in the service's log", serviceErrors.length === 0],
      [`RSS growth after warm-up (at rest) < ${RSS_GROWTH_LIMIT * 100}%`, growth < RSS_GROWTH_LIMIT],
      ["every renewal that fell due was done", end.dueLeft === 0 && end.renewed > 0],
      ["every event delivered", missing === 0 && end.delivered === end.deliveries],
    ];
    return verdict("soak", results);
  } finally {
    await tearDown({ children, receivers, db, scratch });
  }
}

await exitWith(() => main(process.argv.slice(2)));
