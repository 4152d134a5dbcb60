// E-mail crash drill: the real service (main.ts as a child, SMTP_URL at a real SMTP server in this
// process) sends an outbox backlog and is SIGKILLed at random points around the SMTP send, then
// restarted on the same database, again and again; then it is left to drain. Kill points: a named
// fault point at its nth hit (before-email-send, after-email-accepted, after-email-sent;
// core/shared/crash-faults.ts) or a random delay. The properties, per queued message:
//   - it reached the SMTP server at least once, and its row is SENT (none lost);
//   - every receipt carries the row's Message-ID (a repeat can be dropped by the receiver);
//   - a repeat only where a kill fell between the server's acceptance and the SENT write: the earlier
//     receipt is the last one its process made, and that process died by a delay kill or at
//     after-email-accepted (never at before-email-send or after-email-sent, never while running on).
// EMAIL_DRILL_SEED replays a run; EMAIL_DRILL_TRIALS sets the kills (default 5).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueEmails } from "../../core/emails/queue-email.ts";
import { openDb, type Db } from "../../prisma/client.ts";
import { scratchPgDatabase, type ScratchDb } from "../helpers/child-service.ts";
import { mulberry32 } from "../helpers/prng.ts";
import { SmtpReceiver } from "../helpers/smtp-receiver.ts";
import { DRILL_LEASE_MS, DrillService } from "./drill-service.ts";

const SEED = Number(process.env.EMAIL_DRILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
// Each kill costs a process start (a few seconds idle, far more on a loaded host): few, well aimed.
const TRIALS = Number(process.env.EMAIL_DRILL_TRIALS ?? 5);
const PER_TRIAL = 4;
const PG = Boolean(process.env.DATABASE_URL);
const POINTS = ["before-email-send", "after-email-accepted", "after-email-sent"] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Kill {
  /** The process generation that was killed. */
  gen: number;
  /** The fault point it died at, or "delay" (a kill from outside at a random moment). */
  how: (typeof POINTS)[number] | "delay";
  label: string;
}

let scratch: ScratchDb;
let smtp: SmtpReceiver;
let svc: DrillService;
let db: Db;
/** The running process's generation: 1 for the first start, +1 after each kill. */
let gen = 1;

describe.skipIf(!PG)("e-mail crash drill (SIGKILL around the SMTP send, restart, drain, check)", () => {
  beforeAll(async () => {
    console.log(`[email drill] seed ${SEED} (EMAIL_DRILL_SEED=${SEED} replays it), ${TRIALS} kills`);
    scratch = await scratchPgDatabase("billing_email_drill");
    smtp = await SmtpReceiver.start();
    svc = await DrillService.start(scratch.url, {
      SMTP_URL: smtp.url,
      EMAIL_LEASE_MS: String(DRILL_LEASE_MS),
      JOB_SCHEDULES: "send-emails=* * * * * *",
    });
    // Every receipt is tagged with the process generation that sent it (moved on between kill and restart).
    smtp.tag = () => gen;
    db = await openDb({ url: scratch.url, migrate: false });
  }, 120_000);

  afterAll(async () => {
    await svc?.close();
    await db?.close();
    await smtp?.close();
    await scratch?.drop();
  });

  it(`${TRIALS} SIGKILLs around the SMTP send: every message arrives, with its Message-ID, repeated only after a kill between acceptance and SENT`, { timeout: 300_000 }, async () => {
    const rng = mulberry32(SEED);
    const { createTenant } = await svc.gql(`mutation { createTenant(name: "Email drill", mode: SANDBOX) { id } }`);
    const tenantId = createTenant.id as string;
    let n = 0;
    const queue = (count: number) =>
      db.prisma.$transaction((tx) =>
        queueEmails(
          tx,
          Array.from({ length: count }, () => {
            const i = ++n;
            return {
              tenantId,
              to: `drill-${i}@example.com`,
              sourceKey: `drill:${i}`,
              at: new Date(),
              content: { template: "subscription_canceled" as const, params: { planName: `Plano ${i}`, canceledAt: new Date().toISOString(), accessEndsAt: new Date().toISOString(), reason: null } },
            };
          }),
        ),
      );

    const kills: Kill[] = [];
    const t0 = Date.now();
    for (let trial = 1; trial <= TRIALS; trial++) {
      const byPoint = rng() < 0.7;
      // Half the point kills land in the window that can repeat a message (accepted, SENT not written).
      const r = rng();
      const point = r < 0.5 ? "after-email-accepted" : r < 0.75 ? "before-email-send" : "after-email-sent";
      const nth = 1 + Math.floor(rng() * 3);
      const delay = 200 + Math.floor(rng() * 1_500);
      if (byPoint) svc.arm(point, nth);
      expect(await queue(PER_TRIAL)).toBe(PER_TRIAL);
      // The sender ticks every second; a point not reached in 6 s is killed from outside.
      await Promise.race([svc.exited(), sleep(byPoint ? 6_000 : delay)]);
      const diedAtPoint = byPoint && !svc.alive();
      await svc.kill();
      kills.push({ gen: gen++, how: diedAtPoint ? point : "delay", label: byPoint ? `${point}#${nth}${diedAtPoint ? "" : " (not reached)"}` : `+${delay}ms` });
      const tRestart = Date.now();
      await svc.restart();
      console.log(`[email drill] kill ${trial}: ${kills.at(-1)!.label}; ${smtp.receipts.length} receipts so far; restart ${Date.now() - tRestart} ms`);
    }
    const drillMs = Date.now() - t0;

    // Drain: no more kills; every row of the tenant SENT and at the server.
    const rows = () => db.prisma.emailMessage.findMany({ where: { tenantId }, orderBy: { createdAt: "asc" } });
    const deadline = Date.now() + 30_000;
    let all = await rows();
    while (all.some((r) => r.status !== "SENT") || all.some((r) => !smtp.receipts.some((x) => x.to === r.to))) {
      if (Date.now() > deadline) break;
      await sleep(250);
      all = await rows();
    }

    const violations: string[] = [];
    const lastSeqOfGen = new Map<number, number>();
    for (const r of smtp.receipts) lastSeqOfGen.set(r.tag, Math.max(lastSeqOfGen.get(r.tag) ?? -1, r.seq));
    const killOf = new Map(kills.map((k) => [k.gen, k]));
    let repeats = 0;
    expect(all).toHaveLength(TRIALS * PER_TRIAL);
    for (const row of all) {
      if (row.status !== "SENT") violations.push(`${row.to}: left ${row.status} (${row.lastErrorCategory ?? ""} ${row.lastError ?? ""})`);
      // By recipient (one per message), so a repeat under another Message-ID would show.
      const got = smtp.receipts.filter((x) => x.to === row.to);
      if (got.length === 0) violations.push(`${row.to}: never reached the SMTP server`);
      for (const g of got) if (g.messageId !== row.messageId) violations.push(`${row.to}: received with Message-ID ${g.messageId}, queued as ${row.messageId}`);
      // Every receipt but the last is a repeat: it must be its process's last one, and that process was killed in the window.
      for (const g of got.slice(0, -1)) {
        repeats++;
        const kill = killOf.get(g.tag);
        if (!kill) violations.push(`${row.to}: received twice, the first time by process ${g.tag}, which was not killed`);
        else if (kill.how === "before-email-send" || kill.how === "after-email-sent") violations.push(`${row.to}: repeated although process ${g.tag} died at ${kill.how}`);
        if (lastSeqOfGen.get(g.tag) !== g.seq) violations.push(`${row.to}: received twice, and process ${g.tag} went on sending after the first (a repeat without a crash)`);
      }
    }
    const diedAt = (how: Kill["how"]) => kills.filter((k) => k.how === how).length;
    console.log(
      [
        `[email drill] seed ${SEED}: ${kills.length} kills in ${(drillMs / 1000).toFixed(1)} s (${svc.starts} process starts), drained in ${((Date.now() - t0 - drillMs) / 1000).toFixed(1)} s`,
        `  kills: ${kills.map((k) => k.label).join(", ")}`,
        `  at before-email-send ${diedAt("before-email-send")}, after-email-accepted ${diedAt("after-email-accepted")}, after-email-sent ${diedAt("after-email-sent")}, from outside ${diedAt("delay")}`,
        `  ${all.length} messages, ${smtp.receipts.filter((x) => all.some((r) => r.to === x.to)).length} receipts, ${repeats} repeats (same Message-ID); ${violations.length} violations`,
      ].join("\n"),
    );
    expect(violations, `seed ${SEED}\n${svc.child.output().slice(-2000)}`).toEqual([]);
  });
});

// PGlite keeps one process per data directory: the drill queues and checks while the child runs.
it.skipIf(PG)("e-mail crash drill: skipped on PGlite (the drill reads the child's database while it runs): set DATABASE_URL", () => {});
