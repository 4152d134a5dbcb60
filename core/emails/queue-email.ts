// Queues e-mails in the outbox inside the caller's transaction: a message exists exactly when the
// change that causes it commits, and the send-emails job sends it later (billing never waits on SMTP).
// One row per (tenant, template, source): a retried or replayed cause never queues a second e-mail.
import { newId } from "../shared/ids.ts";
import type { Tx } from "../shared/tx.ts";
import { headerText, messageIdFor } from "./email.rules.ts";
import { type EmailContent, isCustomerTemplate, isTeamTemplate } from "./templates/email-content.ts";
import { emailSubject } from "./templates/subjects.ts";
import { sqlExecute, sqlQuery } from "../../prisma/direct-sql.ts";

// Run inside most money transactions (receipts, declines): plain statements without Prisma's compiler (prisma/direct-sql.ts).
const TENANT_SETTINGS = `
  SELECT id, name, mode::text AS mode, email_sender_name AS "emailSenderName", email_reply_to AS "emailReplyTo",
         customer_emails_off AS "customerEmailsOff", contact_emails AS "contactEmails"
    FROM tenants WHERE id = ANY($1::text[])`;
type TenantSettings = { id: string; name: string; mode: string; emailSenderName: string | null; emailReplyTo: string | null; customerEmailsOff: string[]; contactEmails: string[] };
// ON CONFLICT DO NOTHING: one row per (tenant, template, source), a replayed cause queues nothing.
const INSERT_EMAILS = `
  INSERT INTO email_messages (id, message_id, tenant_id, customer_id, event_id, kind, source_key, "to", subject, params, from_name, reply_to, created_at)
  SELECT id, message_id, tenant_id, customer_id, event_id, kind, source_key, "to", subject, params::jsonb, from_name, reply_to, created_at
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamp(3)[])
      AS m(id, message_id, tenant_id, customer_id, event_id, kind, source_key, "to", subject, params, from_name, reply_to, created_at)
  ON CONFLICT DO NOTHING`;

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

interface EmailRow {
  id: string;
  messageId: string;
  tenantId: string;
  customerId: string | null;
  eventId: string | null;
  kind: string;
  sourceKey: string;
  to: string;
  subject: string;
  params: object;
  fromName: string;
  replyTo: string | null;
  createdAt: Date;
}

/** Queues each message its tenant's settings allow; returns how many rows were written. */
export async function queueEmails(tx: Tx, emails: QueuedEmail[]): Promise<number> {
  if (emails.length === 0) return 0;
  const tenants = await sqlQuery<TenantSettings>(tx, TENANT_SETTINGS, [[...new Set(emails.map((e) => e.tenantId))]]);
  const byId = new Map(tenants.map((t) => [t.id, t]));
  const rows: EmailRow[] = [];
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
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  return sqlExecute(tx, INSERT_EMAILS, [
    col((r) => r.id),
    col((r) => r.messageId),
    col((r) => r.tenantId),
    col((r) => r.customerId),
    col((r) => r.eventId),
    col((r) => r.kind),
    col((r) => r.sourceKey),
    col((r) => r.to),
    col((r) => r.subject),
    col((r) => JSON.stringify(r.params)),
    col((r) => r.fromName),
    col((r) => r.replyTo),
    col((r) => r.createdAt.toISOString()),
  ]);
}

export async function queueEmail(tx: Tx, email: QueuedEmail): Promise<number> {
  return queueEmails(tx, [email]);
}
