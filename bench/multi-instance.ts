// Several instances, one PostgreSQL: N due card renewals across a few SANDBOX tenants (wall clock), each
// with a webhook endpoint on a loopback receiver (bench/webhook-receiver.ts, a child process). Three
// `main.ts --role all` processes (test/helpers/child-service.ts) share the billing run and the webhook
// delivery. The tenants are seeded with renewals paused; resuming them (setRenewalsPaused over
// GraphQL) is the start signal, so no instance gets a head start. Then, from the database, the
// receiver and each instance's /metrics:
//   - every renewal charged exactly once: per invoice exactly one approved sandbox card charge, N
//     invoices for N distinct subscriptions, N paid payments, no other charge;
//   - every event delivered: each event id recorded for the tenants reached the tenant's receiver
//     (duplicates, i.e. at-least-once redeliveries, are counted and printed), every delivery row
//     DELIVERED;
//   - the split: renewals (billing_duties_total{outcome="renewed"}) and deliveries
//     (webhook_attempts_total{outcome="delivered"}) per instance; their sums must match the database.
// Exit code 1 when any of these fails.
//
// npm run multi-instance -- [--n 20000] [--instances 3] [--tenants 4] [--schedule "*/2 * * * * *"] [--timeout-min 20]
//   --schedule: the instances' billing-run schedule, passed as JOB_SCHEDULES (node-cron, seconds field first).
// Env: BENCH_PG_URL (else DATABASE_URL, else postgresql://postgres@127.0.0.1:5432): the server; the
//      scratch database multi_instance_<pid>_0 is dropped at the end.
import os from "node:os";
import { parseArgs } from "node:util";
import { openDb, type Db } from "../prisma/client.ts";
import { createWebhookEndpoint } from "../core/webhooks/create-webhook-endpoint.ts";
import { scratchPgDatabase, startChildService, type ChildService } from "../test/helpers/child-service.ts";
import { seedDue } from "./harness.ts";
import { counter, errorLines, operatorGql, rssMb, scrapeMetrics, exitWith, tearDown, verdict } from "./service-probes.ts";
import { Receivers } from "./webhook-receiver.ts";

const POLL_MS = 1_000;
const PRINT_MS = 5_000;

interface Progress {
  paidInvoices: number;
  deliveries: number;
  delivered: number;
}

async function progress(db: Db, tenantIds: string[]): Promise<Progress> {
  const [row] = (await db.sql.query(
    `SELECT (SELECT count(*)::int FROM invoices WHERE tenant_id = ANY($1) AND status = 'PAID') AS "paidInvoices",
            (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = ANY($1)) AS deliveries,
            (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = ANY($1) AND status = 'DELIVERED') AS delivered`,
    [tenantIds],
  )) as unknown as Progress[];
  return row!;
}

/** The exactly-once checks, each a count that must be 0 (or N), read from the database. */
async function chargeChecks(db: Db, tenantIds: string[]) {
  const one = async (sql: string) => ((await db.sql.query(sql, [tenantIds])) as unknown as { n: number }[])[0]!.n;
  return {
    invoices: await one(`SELECT count(*)::int AS n FROM invoices WHERE tenant_id = ANY($1)`),
    invoicedSubscriptions: await one(`SELECT count(DISTINCT subscription_id)::int AS n FROM invoices WHERE tenant_id = ANY($1)`),
    paidPayments: await one(`SELECT count(*)::int AS n FROM payments WHERE tenant_id = ANY($1) AND status = 'PAID'`),
    approvedCharges: await one(`SELECT count(*)::int AS n FROM sandbox_charges WHERE tenant_id = ANY($1) AND kind = 'card' AND status = 'approved'`),
    allCharges: await one(`SELECT count(*)::int AS n FROM sandbox_charges WHERE tenant_id = ANY($1)`),
    // An invoice with zero or with two or more approved charges.
    invoicesNotChargedOnce: await one(`
      SELECT count(*)::int AS n FROM (
        SELECT i.id FROM invoices i
        LEFT JOIN sandbox_charges c ON c.reference = i.id AND c.kind = 'card' AND c.status = 'approved'
        WHERE i.tenant_id = ANY($1) GROUP BY i.id HAVING count(c.id) <> 1) x`),
    chargesOfUnknownInvoices: await one(`
      SELECT count(*)::int AS n FROM sandbox_charges c
      WHERE c.tenant_id = ANY($1) AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.id = c.reference)`),
  };
}

export async function main(argv: string[] = []): Promise<boolean> {
  const { values } = parseArgs({
    args: argv,
    options: {
      n: { type: "string", default: "20000" },
      instances: { type: "string", default: "3" },
      tenants: { type: "string", default: "4" },
      schedule: { type: "string", default: "*/2 * * * * *" },
      "timeout-min": { type: "string", default: "20" },
    },
  });
  const n = Number(values.n);
  const instances = Number(values.instances);
  const tenants = Number(values.tenants);
  const timeoutMs = Number(values["timeout-min"]) * 60_000;
  if (![n, instances, tenants].every((v) => Number.isSafeInteger(v) && v > 0) || !(timeoutMs > 0) || tenants > n) {
    throw new Error('usage: multi-instance.ts [--n 20000] [--instances 3] [--tenants 4] [--schedule "*/2 * * * * *"] [--timeout-min 20]');
  }

  const scratch = await scratchPgDatabase("multi_instance");
  const db = await openDb({ url: scratch.url, poolSize: 2 });
  const children: ChildService[] = [];
  let receivers: Receivers | undefined;
  try {
    console.log(`== ${instances} x main.ts --role all on one PostgreSQL database; ${n} due card renewals over ${tenants} SANDBOX tenants ==`);
    console.log(`host: ${os.cpus().length} cores shared with other work (load ${os.loadavg()[0]!.toFixed(2)}): figures are noisy`);
    const shares = Array.from({ length: tenants }, (_, i) => Math.floor(n / tenants) + (i < n % tenants ? 1 : 0));
    receivers = await Receivers.start(shares.map((expect) => ({ stallMs: 0, expect })));

    const seedStart = performance.now();
    const tenantIds: string[] = [];
    let first = 0;
    for (const [i, share] of shares.entries()) {
      const tenantId = await seedDue(db, share, { mode: "SANDBOX", paused: true, name: `multi-instance ${i + 1}`, firstCustomer: first });
      await createWebhookEndpoint(db.prisma, { tenantId, url: receivers.urls[i]!, events: [] });
      tenantIds.push(tenantId);
      first += share;
    }
    await db.sql.exec("ANALYZE");
    console.log(`seeded ${n} subscriptions (${shares.join(" + ")}) and ${tenants} endpoints in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const env = { JOB_SCHEDULES: `billing-run=${values.schedule!}` };
    children.push(...(await Promise.all(Array.from({ length: instances }, () => startChildService({ databaseUrl: scratch.url, role: "all", env })))));
    console.log(`started ${instances} instances (pids ${children.map((c) => c.proc.pid).join(", ")}), billing run schedule "${values.schedule}"`);

    // The start signal: resume every tenant's renewals, each through a different instance's GraphQL.
    const t0 = performance.now();
    await Promise.all(
      tenantIds.map((tenantId, i) =>
        operatorGql(children[i % instances]!.baseUrl, `mutation($t: ID!) { setRenewalsPaused(tenantId: $t, paused: false) { id } }`, { t: tenantId }),
      ),
    );

    let renewedAt: number | null = null;
    let deliveredAt: number | null = null;
    let lastPrint = 0;
    let last: Progress = { paidInvoices: 0, deliveries: 0, delivered: 0 };
    const peakRss = children.map(() => 0);
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      last = await progress(db, tenantIds);
      children.forEach((c, i) => (peakRss[i] = Math.max(peakRss[i]!, rssMb(c.proc.pid))));
      const elapsed = performance.now() - t0;
      if (renewedAt === null && last.paidInvoices >= n) renewedAt = elapsed;
      if (renewedAt !== null && deliveredAt === null && last.deliveries >= n && last.delivered === last.deliveries) deliveredAt = elapsed;
      if (elapsed - lastPrint >= PRINT_MS || deliveredAt !== null) {
        lastPrint = elapsed;
        console.log(`  t=${(elapsed / 1000).toFixed(0).padStart(4)} s  paid invoices ${String(last.paidInvoices).padStart(6)}/${n}  deliveries ${last.delivered}/${last.deliveries}`);
      }
      if (deliveredAt !== null) break;
      const dead = children.find((c) => c.proc.exitCode !== null || c.proc.signalCode !== null);
      if (dead) throw new Error(`instance ${dead.proc.pid} exited:\n${dead.output().slice(-4000)}`);
      if (elapsed > timeoutMs) break;
    }
    // Let the last outcomes reach the receivers' reports and the counters.
    await new Promise((r) => setTimeout(r, 1_500));

    const scrapes = await Promise.all(children.map((c) => scrapeMetrics(c.baseUrl)));
    const report = await receivers.collect();
    // The statistics are from the seeding (no invoices, no charges yet): refresh them before the joins.
    await db.sql.exec("ANALYZE invoices, payments, sandbox_charges, events, webhook_deliveries");
    const checks = await chargeChecks(db, tenantIds);

    // Every recorded event of the bench tenants must have reached its tenant's receiver.
    let events = 0;
    let missing = 0;
    for (const [i, tenantId] of tenantIds.entries()) {
      const rows = (await db.sql.query(`SELECT id FROM events WHERE tenant_id = $1`, [tenantId])) as unknown as { id: string }[];
      const seen = new Set(report.endpoints[i]!.arrivals.map(([id]) => id));
      events += rows.length;
      missing += rows.filter((r) => !seen.has(r.id)).length;
    }
    const duplicates = report.endpoints.reduce((s, e) => s + e.duplicates, 0);
    const requests = report.endpoints.reduce((s, e) => s + e.requests, 0);
    const unsigned = report.endpoints.reduce((s, e) => s + e.unsigned, 0);

    const renewedBy = scrapes.map((s) => counter(s, "billing_duties_total", 'outcome="renewed"'));
    const deliveredBy = scrapes.map((s) => counter(s, "webhook_attempts_total", 'outcome="delivered"'));
    const failedBy = scrapes.map((s) => counter(s, "webhook_attempts_total", 'outcome="failed"'));
    const dutyErrorsBy = scrapes.map((s) => counter(s, "billing_duties_total", 'outcome="errors"'));
    const errorsBy = children.map((c) => errorLines(c.output()));
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

    console.log(`\n== split of the work per instance ==`);
    console.log(`${"instance".padEnd(10)}${"pid".padStart(8)}${"renewals".padStart(10)}${"share".padStart(7)}${"deliveries".padStart(12)}${"share".padStart(7)}${"failed att.".padStart(12)}${"duty err".padStart(9)}${"error logs".padStart(11)}${"peak RSS MB".padStart(12)}`);
    children.forEach((c, i) => {
      const pct = (v: number, total: number) => `${total ? ((100 * v) / total).toFixed(0) : "-"}%`;
      console.log(
        `${`#${i + 1}`.padEnd(10)}${String(c.proc.pid).padStart(8)}${String(renewedBy[i]).padStart(10)}${pct(renewedBy[i]!, sum(renewedBy)).padStart(7)}${String(deliveredBy[i]).padStart(12)}${pct(deliveredBy[i]!, sum(deliveredBy)).padStart(7)}${String(failedBy[i]).padStart(12)}${String(dutyErrorsBy[i]).padStart(9)}${String(errorsBy[i]!.length).padStart(11)}${peakRss[i]!.toFixed(0).padStart(12)}`,
      );
    });
    console.log(`${"total".padEnd(18)}${String(sum(renewedBy)).padStart(10)}${"".padStart(7)}${String(sum(deliveredBy)).padStart(12)}`);
    for (const [i, lines] of errorsBy.entries()) for (const line of lines.slice(0, 3)) console.log(`  #${i + 1} error log: ${line.slice(0, 300)}`);

    const secs = (ms: number | null) => (ms === null ? "not reached" : `${(ms / 1000).toFixed(1)} s`);
    console.log(`\n== figures ==`);
    console.log(`renewals done      ${secs(renewedAt)} after the start signal${renewedAt ? `  (${(n / (renewedAt / 1000)).toFixed(0)} renewals/s over ${instances} instances)` : ""}`);
    console.log(`deliveries done    ${secs(deliveredAt)} after the start signal${deliveredAt ? `  (${(last.deliveries / (deliveredAt / 1000)).toFixed(0)} deliveries/s end to end)` : ""}`);
    console.log(`receiver           ${requests} requests, ${duplicates} duplicates (at-least-once redeliveries), ${unsigned} unsigned`);

    const results: [string, boolean][] = [
      [`invoices = N (${checks.invoices} of ${n})`, checks.invoices === n],
      [`no subscription invoiced twice (${checks.invoicedSubscriptions} distinct subscriptions for ${checks.invoices} invoices)`, checks.invoicedSubscriptions === checks.invoices],
      [`approved card charges = N (${checks.approvedCharges}; all gateway charges ${checks.allCharges})`, checks.approvedCharges === n && checks.allCharges === n],
      [`every invoice has exactly one approved charge (${checks.invoicesNotChargedOnce} do not)`, checks.invoicesNotChargedOnce === 0],
      [`no charge outside an invoice (${checks.chargesOfUnknownInvoices})`, checks.chargesOfUnknownInvoices === 0],
      [`paid payments = N (${checks.paidPayments})`, checks.paidPayments === n],
      [`renewals per instance sum to N (${sum(renewedBy)})`, sum(renewedBy) === n],
      [`every event delivered (${events - missing} of ${events} events reached the receiver; ${missing} missing)`, events >= n && missing === 0],
      [`every delivery row DELIVERED (${last.delivered} of ${last.deliveries})`, last.deliveries >= n && last.delivered === last.deliveries],
      [`deliveries per instance cover every delivery row (${sum(deliveredBy)} >= ${last.deliveries})`, sum(deliveredBy) >= last.deliveries],
      [`work spread: every instance renewed and delivered some`, renewedBy.every((v) => v > 0) && deliveredBy.every((v) => v > 0)],
    ];
    console.log(`\n== checks ==`);
    return verdict("multi-instance", results);
  } finally {
    await tearDown({ children, receivers, db, scratch });
  }
}

await exitWith(() => main(process.argv.slice(2)));
