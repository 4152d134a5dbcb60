// Three service instances send one outbox backlog to a real SMTP server: each message arrives exactly
// once (by Message-ID). On PostgreSQL (DATABASE_URL) the instances are three services with their own
// connection pools on one database, as in production; on PGlite, three sender loops of one process.
import { afterAll, describe, expect, it } from "vitest";
import { queueEmails } from "../../core/emails/queue-email.ts";
import { smtpMailer } from "../../core/emails/mailer.ts";
import type { Runtime } from "../../core/runtime.ts";
import { createLogger } from "../../core/shared/logger.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { openDb } from "../../prisma/client.ts";
import { buildService } from "../../server/service.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { SmtpReceiver } from "../helpers/smtp-receiver.ts";
import { newTenant } from "../helpers/tenant.ts";

const PG = Boolean(process.env.DATABASE_URL);
const BACKLOG = 60;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close().catch(() => {});
});

/** Three runtimes on the test database: the test service and, on PostgreSQL, two more services. */
async function threeInstances(): Promise<Runtime[]> {
  const first = (await testService()).runtime;
  if (!PG) return [first, first, first];
  const more: Runtime[] = [];
  for (let i = 0; i < 2; i++) {
    const svc = await buildService(await openDb({ url: process.env.DATABASE_URL, migrate: false }), createLogger("silent"), { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" });
    closers.push(() => svc.runtime.db.close());
    more.push(svc.runtime);
  }
  return [first, ...more];
}

describe(`three senders${PG ? " (three services on PostgreSQL)" : " (three loops on PGlite)"}`, () => {
  it(`a backlog of ${BACKLOG} messages: each received exactly once, by Message-ID`, { timeout: 120_000 }, async () => {
    const smtp = await SmtpReceiver.start();
    closers.push(() => smtp.close());
    // A slow server (each 250 after 15 ms): the senders' claims overlap in time.
    smtp.acceptDelayMs = 15;
    const t = await newTenant();
    const prisma = (await testService()).runtime.db.prisma;
    const at = new Date();
    await prisma.$transaction((tx) =>
      queueEmails(
        tx,
        Array.from({ length: BACKLOG }, (_, i) => ({
          tenantId: t.tenantId,
          to: `three-${i}@example.com`,
          sourceKey: `three:${i}`,
          at,
          content: { template: "subscription_canceled" as const, params: { planName: "Pro", canceledAt: at.toISOString(), accessEndsAt: at.toISOString(), reason: null } },
        })),
      ),
    );
    const queued = await prisma.emailMessage.findMany({ where: { tenantId: t.tenantId }, select: { messageId: true } });
    expect(queued).toHaveLength(BACKLOG);

    const instances = await threeInstances();
    // Each instance loops as its job does (one batch per tick), with its own SMTP transport, until nothing is due.
    const sentBy = await Promise.all(
      instances.map(async (runtime) => {
        const mailer = smtpMailer(smtp.url);
        let sent = 0;
        for (let tick = 0; tick < 50; tick++) {
          const c = await sendEmails(runtime, { mailer, tenantId: t.tenantId, maxBatches: 1 });
          expect(c.retry + c.failed).toBe(0);
          sent += c.sent;
          const left = await runtime.db.prisma.emailMessage.count({ where: { tenantId: t.tenantId, status: "PENDING" } });
          if (left === 0) break;
          await new Promise((r) => setTimeout(r, 5));
        }
        return sent;
      }),
    );
    console.log(`[three senders] sent per instance: ${sentBy.join(", ")}`);
    expect(sentBy.reduce((a, b) => a + b, 0)).toBe(BACKLOG);

    const mine = smtp.receipts.filter((r) => r.to.startsWith("three-"));
    const byId = smtp.byMessageId();
    expect(mine).toHaveLength(BACKLOG);
    expect(queued.map((q) => [q.messageId, byId.get(q.messageId!)?.length ?? 0]).filter(([, n]) => n !== 1)).toEqual([]);
    expect(await prisma.emailMessage.count({ where: { tenantId: t.tenantId, status: "SENT", attempts: 1 } })).toBe(BACKLOG);
  });
});
