// A referral between two records of one person does not count (found as: a second
// checkout with the referrer's CPF, phone and card under a `+alt` e-mail collected the reward).
// Same person means sharing any of: the document (CPF/CNPJ digits), the mobile (E.164), the mailbox
// (e-mail without its `+tag`, case-insensitive), or a card fingerprint. The fingerprint is what the
// gateway returns for a tokenized card (brand, last 4 digits, expiry month and year): gateway tokens
// differ on every tokenization, and no hash of the card number is kept. Two different people's cards
// agree on all four about once in a million pairs; such a referral is not rewarded, a sale never fails.
import type { Tx } from "../shared/tx.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

/** The mailbox an address delivers to: `Ana+alt@Example.com` and `ana@example.com` are one. */
export function mailbox(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return email.trim().toLowerCase();
  const local = email.slice(0, at).split("+")[0]!;
  return `${local}@${email.slice(at + 1)}`.trim().toLowerCase();
}

export async function isSelfReferral(tx: Tx, input: { tenantId: string; referrerCustomerId: string; referredCustomerId: string }): Promise<boolean> {
  const { tenantId, referrerCustomerId, referredCustomerId } = input;
  const people = await tx.customer.findMany({
    where: { tenantId, id: { in: [referrerCustomerId, referredCustomerId] } },
    select: { id: true, email: true, phone: true, doc: true },
  });
  const referrer = people.find((c) => c.id === referrerCustomerId);
  const referred = people.find((c) => c.id === referredCustomerId);
  if (!referrer || !referred) return false;
  if (referrer.doc && referrer.doc === referred.doc) return true;
  if (referrer.phone && referrer.phone === referred.phone) return true;
  if (mailbox(referrer.email) === mailbox(referred.email)) return true;
  // Any card of one (saved or detached) with the fingerprint of a card of the other.
  const [shared] = await sqlQuery<{ n: number }>(tx, Prisma.sql`
    SELECT count(*)::int AS n FROM payment_methods a
      JOIN payment_methods b ON b.tenant_id = a.tenant_id AND b.customer_id = ${referredCustomerId}
       AND b.brand = a.brand AND b.last4 = a.last4 AND b.exp_month = a.exp_month AND b.exp_year = a.exp_year
     WHERE a.tenant_id = ${tenantId} AND a.customer_id = ${referrerCustomerId}`);
  return (shared?.n ?? 0) > 0;
}
