// Queues e-mails in the outbox inside the caller's transaction: a message exists exactly when the
// change that causes it commits, and the send-emails job sends it later (billing never waits on SMTP).
// One row per (tenant, template, source): a retried or replayed cause never queues a second e-mail.
import { newId } from "../shared/ids.ts";
import type { Tx } from "../shared/tx.ts";
import { headerText, messageIdFor } from "./email.rules.ts";
import { type EmailContent, isCustomerTemplate, isTeamTemplate } from "./templates/email-content.ts";
import { emailSubject } from "./templates/subjects.ts";

export interface QueuedEmail {
  tenantId: string;
  content: EmailContent;
  /** What caused it, unique per template: an event id, a payment id, ... */
  sourceKey: string;
  /** Customers and team e-mails: their address. Vendor alarms: omitted, the tenant's contact addresses are used. */
  to?: string;
  customerId?: string | null;
  eventId?: string | null;
  /** Business time (the tenant's clock). */
  at: Date;
}

/** Queues each message its tenant's settings allow; returns how many rows were written. */
export async function queueEmails(tx: Tx, emails: QueuedEmail[]): Promise<number> {
  if (emails.length === 0) return 0;
  const tenants = await tx.tenant.findMany({
    where: { id: { in: [...new Set(emails.map((e) => e.tenantId))] } },
    select: { id: true, name: true, mode: true, emailSenderName: true, emailReplyTo: true, customerEmailsOff: true, contactEmails: true },
  });
  const byId = new Map(tenants.map((t) => [t.id, t]));
  const rows = [];
  for (const e of emails) {
    const tenant = byId.get(e.tenantId);
    if (!tenant) continue;
    const customer = isCustomerTemplate(e.content.template);
    if (customer && tenant.customerEmailsOff.includes(e.content.template)) continue;
    // Team e-mails (an invitation, a reset) go to the one person named, never to the contact list.
    const to = customer || isTeamTemplate(e.content.template) ? e.to : tenant.contactEmails.join(", ");
    if (!to) continue;
    const senderName = headerText(tenant.emailSenderName || tenant.name);
    const id = newId("email");
    rows.push({
      id,
      messageId: messageIdFor(id),
      tenantId: e.tenantId,
      customerId: e.customerId ?? null,
      eventId: e.eventId ?? null,
      kind: e.content.template,
      sourceKey: e.sourceKey,
      to,
      subject: emailSubject(e.content, { senderName, sandbox: tenant.mode === "SANDBOX" }),
      params: e.content.params as object,
      fromName: senderName,
      replyTo: tenant.emailReplyTo,
      createdAt: e.at,
    });
  }
  if (rows.length === 0) return 0;
  const written = await tx.emailMessage.createMany({ data: rows, skipDuplicates: true });
  return written.count;
}

export async function queueEmail(tx: Tx, email: QueuedEmail): Promise<number> {
  return queueEmails(tx, [email]);
}
