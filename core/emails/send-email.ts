// Sends one claimed outbox message and records the outcome: SENT, a retry after a backoff, or FAILED
// (a permanent 5xx, a recipient we refuse, or the last allowed try). The outcome is written only while
// our lease still holds the row, so a slow send whose lease was taken over cannot overwrite the other.
// The message is rendered here from the params queued with it; the parts are kept on the row.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Logger } from "pino";
import type { FaultPoint } from "../shared/crash-faults.ts";
import type { ClaimedEmail } from "./claim-emails.ts";
import { classifyEmailError, emailBackoffMs, headerText, isCleanAddress, MAX_EMAIL_ATTEMPTS, messageIdFor, type EmailErrorCategory } from "./email.rules.ts";
import type { Mailer } from "./mailer.ts";
import { renderOutboxEmail } from "./render-outbox-email.ts";
import type { LinkVault } from "./team-email-link.ts";
import { sqlExecute } from "../../prisma/direct-sql.ts";
import { isTeamTemplate } from "./templates/email-content.ts";

export type SendOutcome = "sent" | "retry" | "failed";

// Every message sent ends with this write (one per receipt in a checkout burst): a plain statement
// without Prisma's compiler (prisma/direct-sql.ts). The rendered parts and a team link's params are
// written only when given; the status trigger still refuses any move but PENDING -> SENT.
const MARK_SENT = `
  UPDATE email_messages SET status = 'SENT', attempts = $2, sent_at = $3, last_error_category = NULL, last_error = NULL, lease_until = NULL,
         body = COALESCE($4, body), html = COALESCE($5, html), params = COALESCE($6::jsonb, params)
   WHERE id = $1 AND status = 'PENDING'`;

export async function sendEmail(
  deps: { prisma: PrismaClient; mailer: Mailer; logger: Logger; from: string; now: () => Date; publicUrl: string; linkVault?: LinkVault; faults?: (point: FaultPoint) => void },
  email: ClaimedEmail,
): Promise<SendOutcome> {
  const attempts = email.attempts + 1;
  const held = { id: email.id, status: "PENDING" as const, leaseUntil: email.lease_until };
  // The rendered parts, kept once, so the list of what was sent shows the words that went out.
  let parts: { body?: string; html?: string } = {};
  const fail = async (category: EmailErrorCategory, error: string) => {
    await deps.prisma.emailMessage.updateMany({
      where: held,
      data: { status: "FAILED", attempts, lastErrorCategory: category, lastError: error.slice(0, 500), leaseUntil: null, ...parts },
    });
    deps.logger.warn({ email: email.id, category, error }, "e-mail failed");
    return "failed" as const;
  };
  // Vendor alarms go to the team's list ("a@x, b@y"): every address must be clean.
  const recipients = email.to.split(",").map((a) => a.trim());
  if (!recipients.every(isCleanAddress)) return fail("permanent_rejection", "recipient address refused (empty, malformed or carrying control characters)");
  const replyTo = email.reply_to && isCleanAddress(email.reply_to) ? email.reply_to : null;

  // A team e-mail's link is single-use: it is opened for the recipient only, and what is kept on the
  // row shows a placeholder in its place; once sent, the sealed link is dropped from the params.
  const team = isTeamTemplate(email.kind);
  let rendered;
  let kept;
  try {
    const row = { kind: email.kind, params: email.params, fromName: email.from_name };
    const frame = { customerName: email.customer_name, sandbox: email.sandbox, publicUrl: deps.publicUrl };
    rendered = await renderOutboxEmail(row, team ? { ...frame, linkVault: deps.linkVault } : frame);
    kept = team ? await renderOutboxEmail(row, frame) : rendered;
  } catch (err) {
    // A template that cannot render these params will not render them on a retry either.
    return fail("permanent_rejection", `not rendered: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (team && !deps.linkVault) return fail("permanent_rejection", "not rendered: no key to open the single-use link");
  const text = rendered?.text ?? email.body ?? "";
  const html = rendered?.html ?? email.html;
  if (email.body === null && kept) parts = { body: kept.text, html: kept.html };

  deps.faults?.("before-email-send");
  try {
    await deps.mailer.send({
      id: email.id,
      messageId: email.message_id ?? messageIdFor(email.id),
      from: senderFrom(deps.from, email.from_name),
      to: recipients.join(", "),
      replyTo,
      subject: headerText(email.subject),
      text,
      html,
      inline: rendered?.inline ?? [],
    });
  } catch (err) {
    const { category, permanent } = classifyEmailError(err);
    const error = err instanceof Error ? err.message : String(err);
    if (permanent || attempts >= MAX_EMAIL_ATTEMPTS) return fail(category, error);
    await deps.prisma.emailMessage.updateMany({
      where: held,
      data: {
        ...parts,
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
  await sqlExecute(deps.prisma, MARK_SENT, [
    email.id,
    attempts,
    deps.now(),
    parts.body ?? null,
    parts.html ?? null,
    team ? JSON.stringify(withoutLink(email.params)) : null,
  ]);
  deps.faults?.("after-email-sent");
  return "sent";
}

/** MAIL_FROM's address under the vendor's display name (or MAIL_FROM's own name), cleaned for a header. */
function senderFrom(from: string, vendorName: string | null): string {
  const m = /^(.*)<([^<>]+)>\s*$/s.exec(from);
  const address = headerText(m ? m[2]! : from);
  const name = headerText(vendorName || (m ? m[1]! : "")).replace(/["\\]/g, "");
  return name ? `"${name}" <${address}>` : address;
}

/** A sent team e-mail's params without the sealed link (nothing needs it any more). */
function withoutLink(params: unknown): object {
  const { url: _sealed, ...rest } = (params ?? {}) as Record<string, unknown>;
  return rest;
}
