// Operator (the panel later): how the tenant's customer e-mails go out: the sender's display name
// (the tenant's name when unset), the Reply-To address, and the customer templates turned off (a
// vendor that sends its own). A field left out stays as it is; an empty name or reply-to clears it.
import { isCleanAddress } from "../emails/email.rules.ts";
import { CUSTOMER_TEMPLATES, isCustomerTemplate } from "../emails/templates/email-content.ts";
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";

export interface TenantEmailSettingsInput {
  tenantId: string;
  senderName?: string | null;
  replyTo?: string | null;
  customerEmailsOff?: string[] | null;
}

export interface TenantEmailSettings {
  /** What customers see as the sender: the set name, else the tenant's name. */
  senderName: string;
  /** True when senderName is the tenant's name (nothing set). */
  senderNameIsDefault: boolean;
  replyTo: string | null;
  customerEmailsOff: string[];
}

const MAX_NAME = 100;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const invalid = (error: string) => new AppError("invalid_argument", { error });

/** Validated changes: refused whole when any field is wrong. */
function changes(input: TenantEmailSettingsInput) {
  const data: { emailSenderName?: string | null; emailReplyTo?: string | null; customerEmailsOff?: string[] } = {};
  if (input.senderName != null) {
    const name = input.senderName.trim();
    if (name.length > MAX_NAME || CONTROL.test(name)) throw invalid(`senderName must be at most ${MAX_NAME} characters on one line`);
    data.emailSenderName = name || null;
  }
  if (input.replyTo != null) {
    const address = input.replyTo.trim().toLowerCase();
    if (address && (address.length > 254 || !isCleanAddress(address) || !/^[^@]+@[^@]+\.[^@.]+$/.test(address))) throw invalid("replyTo is not an e-mail address");
    data.emailReplyTo = address || null;
  }
  if (input.customerEmailsOff != null) {
    const unknown = input.customerEmailsOff.find((t) => !isCustomerTemplate(t));
    if (unknown !== undefined) throw invalid(`customerEmailsOff: unknown template ${JSON.stringify(unknown)} (one of ${CUSTOMER_TEMPLATES.join(", ")})`);
    data.customerEmailsOff = [...new Set(input.customerEmailsOff)];
  }
  return data;
}

export function emailSettingsOf(t: { name: string; emailSenderName: string | null; emailReplyTo: string | null; customerEmailsOff: string[] }): TenantEmailSettings {
  return { senderName: t.emailSenderName || t.name, senderNameIsDefault: !t.emailSenderName, replyTo: t.emailReplyTo, customerEmailsOff: t.customerEmailsOff };
}

export async function updateTenantEmailSettings(runtime: Runtime, input: TenantEmailSettingsInput): Promise<TenantEmailSettings> {
  const data = changes(input);
  const exists = await runtime.db.prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!exists) throw notFound("tenant");
  const tenant = await runtime.db.prisma.tenant.update({ where: { id: input.tenantId }, data });
  return emailSettingsOf(tenant);
}
