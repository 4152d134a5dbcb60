// EMAIL_LEASE_MS: how long a sender holds a claimed outbox e-mail, from the environment (validated),
// and what the send-emails job claims with (runtime.leases.emailMs).
import { describe, expect, it } from "vitest";
import { queueEmails } from "../../core/emails/queue-email.ts";
import type { Mailer } from "../../core/emails/mailer.ts";
import { DEFAULT_LEASES, leasesFromEnv } from "../../core/shared/leases.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

describe("EMAIL_LEASE_MS", () => {
  it("defaults to two minutes; a positive whole number of ms is taken; anything else is refused", () => {
    expect(DEFAULT_LEASES.emailMs).toBe(120_000);
    expect(leasesFromEnv({}).emailMs).toBe(120_000);
    expect(leasesFromEnv({ EMAIL_LEASE_MS: "" }).emailMs).toBe(120_000);
    expect(leasesFromEnv({ EMAIL_LEASE_MS: "45000" }).emailMs).toBe(45_000);
    for (const bad of ["0", "-5", "1.5", "2m", "abc"]) expect(() => leasesFromEnv({ EMAIL_LEASE_MS: bad }), bad).toThrow(/positive integers/);
  });

  it("the job claims each message for runtime.leases.emailMs", async () => {
    const runtime = (await testService()).runtime;
    const t = await newTenant();
    const at = new Date();
    await runtime.db.prisma.$transaction((tx) =>
      queueEmails(tx, [
        {
          tenantId: t.tenantId,
          to: "lease@example.com",
          sourceKey: "lease:1",
          at,
          content: { template: "subscription_canceled", params: { planName: "Pro", canceledAt: at.toISOString(), accessEndsAt: at.toISOString(), reason: null } },
        },
      ]),
    );
    const now = new Date(Date.now() + 1_000);
    const seen: (Date | null)[] = [];
    // A mailer that reads the row's lease while the message is in its hands.
    const mailer: Mailer = {
      description: "probe",
      verify: async () => {},
      send: async (m) => {
        seen.push((await runtime.db.prisma.emailMessage.findFirstOrThrow({ where: { tenantId: t.tenantId, messageId: m.messageId } })).leaseUntil);
      },
    };
    const saved = runtime.leases;
    runtime.leases = { ...saved, emailMs: 7_000 };
    try {
      expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, now: () => now })).toEqual({ sent: 1, retry: 0, failed: 0 });
    } finally {
      runtime.leases = saved;
    }
    expect(seen.map((d) => d?.getTime())).toEqual([now.getTime() + 7_000]);
  });
});
