// Sends one claimed outbox message and records the outcome: SENT, a retry after a backoff, or FAILED
// (a permanent 5xx, a recipient we refuse, or the last allowed try). The outcome is written only while
// our lease still holds the row, so a slow send whose lease was taken over cannot overwrite the other.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Logger } from "pino";
import type { FaultPoint } from "../shared/crash-faults.ts";
import type { ClaimedEmail } from "./claim-emails.ts";
import { classifyEmailError, emailBackoffMs, headerText, isCleanAddress, MAX_EMAIL_ATTEMPTS, messageIdFor, type EmailErrorCategory } from "./email.rules.ts";
import type { Mailer } from "./mailer.ts";

export type SendOutcome = "sent" | "retry" | "failed";

export async function sendEmail(
  deps: { prisma: PrismaClient; mailer: Mailer; logger: Logger; from: string; now: () => Date; faults?: (point: FaultPoint) => void },
  email: ClaimedEmail,
): Promise<SendOutcome> {
  const attempts = email.attempts + 1;
  const held = { id: email.id, status: "PENDING" as const, leaseUntil: email.lease_until };
  const fail = async (category: EmailErrorCategory, error: string) => {
    await deps.prisma.emailMessage.updateMany({
      where: held,
      data: { status: "FAILED", attempts, lastErrorCategory: category, lastError: error.slice(0, 500), leaseUntil: null },
    });
    deps.logger.warn({ email: email.id, category, error }, "e-mail failed");
    return "failed" as const;
  };
  if (!isCleanAddress(email.to)) return fail("permanent_rejection", "recipient address refused (empty, malformed or carrying control characters)");

  deps.faults?.("before-email-send");
  try {
    await deps.mailer.send({
      id: email.id,
      messageId: email.message_id ?? messageIdFor(email.id),
      from: cleanFrom(deps.from),
      to: email.to,
      subject: headerText(email.subject),
      text: email.body,
      html: email.html,
    });
  } catch (err) {
    const { category, permanent } = classifyEmailError(err);
    const error = err instanceof Error ? err.message : String(err);
    if (permanent || attempts >= MAX_EMAIL_ATTEMPTS) return fail(category, error);
    await deps.prisma.emailMessage.updateMany({
      where: held,
      data: {
        attempts,
        lastErrorCategory: category,
        lastError: error.slice(0, 500),
        nextAttemptAt: new Date(deps.now().getTime() + emailBackoffMs(attempts)),
        leaseUntil: null,
      },
    });
    deps.logger.info({ email: email.id, category, attempts }, "e-mail will be retried");
    return "retry";
  }
  // A crash from here to the SENT write repeats the message (same Message-ID) once the lease runs out.
  deps.faults?.("after-email-accepted");
  await deps.prisma.emailMessage.updateMany({
    where: { id: email.id, status: "PENDING" },
    data: { status: "SENT", attempts, sentAt: deps.now(), lastErrorCategory: null, lastError: null, leaseUntil: null },
  });
  deps.faults?.("after-email-sent");
  return "sent";
}

/** MAIL_FROM with its display name cleaned (`Name <addr>` or a bare address). */
function cleanFrom(from: string): string {
  const m = /^(.*)<([^<>]+)>\s*$/s.exec(from);
  if (!m) return headerText(from);
  const name = headerText(m[1]!).replace(/"/g, "");
  return name ? `"${name}" <${headerText(m[2]!)}>` : headerText(m[2]!);
}
