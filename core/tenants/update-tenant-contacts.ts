// Operator: the addresses of the vendor's team that receive its alarms (webhook endpoint failing,
// gateway credentials refused). An empty list turns the alarms off. Until the panel sets them.
import { isCleanAddress } from "../emails/email.rules.ts";
import { AppError, notFound } from "../shared/errors.ts";
import type { Runtime } from "../runtime.ts";

/** Alarms go to a team, not a mailing list. */
export const MAX_CONTACT_EMAILS = 10;
const MAX_ADDRESS_LENGTH = 254;

/** Trimmed, lower-cased, without repeats; refused whole when any address is not one. */
export function contactEmailList(emails: string[]): string[] {
  const list = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  if (list.length > MAX_CONTACT_EMAILS) throw new AppError("invalid_argument", { error: `at most ${MAX_CONTACT_EMAILS} contact addresses` });
  const bad = list.findIndex((e) => e.length > MAX_ADDRESS_LENGTH || !isCleanAddress(e) || !/^[^@]+@[^@]+\.[^@.]+$/.test(e));
  if (bad >= 0) throw new AppError("invalid_argument", { error: `emails[${emails.findIndex((e) => e.trim().toLowerCase() === list[bad])}] is not an e-mail address` });
  return list;
}

export async function updateTenantContacts(runtime: Runtime, input: { tenantId: string; emails: string[] }) {
  const contactEmails = contactEmailList(input.emails);
  const exists = await runtime.db.prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!exists) throw notFound("tenant");
  return runtime.db.prisma.tenant.update({ where: { id: input.tenantId }, data: { contactEmails } });
}
