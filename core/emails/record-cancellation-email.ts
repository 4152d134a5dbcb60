// Records the cancellation e-mail in the email_messages outbox, inside the canceling transaction:
// the e-mail exists exactly when the cancellation commits. No SMTP here: jobs/send-emails.job.ts sends it.
import type { Tx } from "../shared/tx.ts";
import { newId } from "../shared/ids.ts";
import { messageIdFor } from "./email.rules.ts";
import { renderCancellationEmail } from "./render-cancellation-email.ts";

export const CANCELLATION_EMAIL_KIND = "subscription_canceled";

export async function recordCancellationEmail(
  tx: Tx,
  input: { tenantId: string; subscriptionId: string; reason: string | null; at: Date },
): Promise<void> {
  const sub = await tx.subscription.findFirstOrThrow({
    where: { id: input.subscriptionId, tenantId: input.tenantId },
    select: { customer: { select: { id: true, name: true, email: true } }, plan: { select: { name: true } }, tenant: { select: { name: true } } },
  });
  const email = renderCancellationEmail({
    customerName: sub.customer.name,
    tenantName: sub.tenant.name,
    planName: sub.plan.name,
    canceledAt: input.at,
    reason: input.reason,
  });
  const id = newId("email");
  await tx.emailMessage.create({
    data: {
      id,
      messageId: messageIdFor(id),
      tenantId: input.tenantId,
      customerId: sub.customer.id,
      kind: CANCELLATION_EMAIL_KIND,
      sourceKey: input.subscriptionId,
      to: sub.customer.email,
      subject: email.subject,
      body: email.body,
      createdAt: input.at,
    },
  });
}
