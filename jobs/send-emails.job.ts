// Sends the e-mail outbox. Every instance may run it at once: each message is claimed with a lease
// (core/emails/claim-emails.ts), so none is sent twice. Billing never waits on it.
import { dataDir } from "../prisma/connection.ts";
import type { Runtime } from "../core/runtime.ts";
import { claimDueEmails } from "../core/emails/claim-emails.ts";
import { mailerFromEnv, mailFrom, type Mailer } from "../core/emails/mailer.ts";
import { sendEmail, type SendOutcome } from "../core/emails/send-email.ts";
import { DEFAULT_LEASES } from "../core/shared/leases.ts";

/** The default lease (EMAIL_LEASE_MS, runtime.leases.emailMs): longer than the transport's timeouts plus the outcome write. */
export const EMAIL_LEASE_MS = DEFAULT_LEASES.emailMs;
const BATCH = 20;

let processMailer: Mailer | undefined;

/** The process's transport, from SMTP_URL (or the .eml files under DATA_DIR/mail/). */
export function defaultMailer(runtime: Pick<Runtime, "logger">): Mailer {
  processMailer ??= mailerFromEnv(runtime.logger, dataDir());
  return processMailer;
}

export async function sendEmails(
  runtime: Runtime,
  opts: { mailer?: Mailer; from?: string; now?: () => Date; tenantId?: string; maxBatches?: number } = {},
): Promise<Record<SendOutcome, number>> {
  const mailer = opts.mailer ?? defaultMailer(runtime);
  const now = opts.now ?? (() => runtime.wallClock.now());
  const deps = { prisma: runtime.db.prisma, mailer, logger: runtime.logger, from: opts.from ?? mailFrom(), now, publicUrl: runtime.config.publicUrl, linkVault: runtime.gateways.vault, faults: runtime.faults };
  const counts: Record<SendOutcome, number> = { sent: 0, retry: 0, failed: 0 };
  for (let batch = 0; batch < (opts.maxBatches ?? 10); batch++) {
    const claimed = await claimDueEmails(runtime.db.prisma, { limit: BATCH, now: now(), leaseMs: runtime.leases?.emailMs ?? EMAIL_LEASE_MS, tenantId: opts.tenantId });
    // One at a time: an SMTP server limits connections, and a retry is already scheduled per message.
    for (const email of claimed) counts[await sendEmail(deps, email)]++;
    if (claimed.length < BATCH) break;
  }
  return counts;
}
