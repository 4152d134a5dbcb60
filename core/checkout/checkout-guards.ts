// Read-only checks a checkout makes before touching the gateway: the customer key and the coupon.
// Each refusal names the form field it is about.
import type { Coupon, Customer, PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { couponRefusal } from "./refusal-texts.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { customerColumns } from "../shared/row-columns.ts";

export function fieldError(field: string, error: string): AppError {
  return new AppError("invalid_field", { error, extra: { field } });
}

// Read on every checkout post, without Prisma's compiler (prisma/direct-sql.ts). One statement answers
// both keys: the customer with this e-mail, and the one with this external id.
const BY_EMAIL_OR_EXTERNAL_ID = `SELECT ${customerColumns()} FROM customers WHERE tenant_id = $1 AND (email = $2 OR external_id = $3)`;

/** The existing customer this checkout belongs to, or null for a new one. */
export async function findCheckoutCustomer(
  prisma: PrismaClient,
  tenantId: string,
  input: { externalId: string | null; email: string },
): Promise<Customer | null> {
  const found = await sqlQuery<Customer>(prisma, BY_EMAIL_OR_EXTERNAL_ID, [tenantId, input.email, input.externalId]);
  const byEmail = found.find((c) => c.email === input.email) ?? null;
  if (!input.externalId) return byEmail;
  const byExternalId = found.find((c) => c.externalId === input.externalId) ?? null;
  if (byExternalId && byExternalId.email.toLowerCase() !== input.email.toLowerCase()) {
    throw fieldError("external_id", "este identificador já pertence a um cliente com outro e-mail");
  }
  if (!byExternalId && byEmail) throw fieldError("email", "este e-mail já pertence a outro cliente");
  return byExternalId;
}

/** The coupon typed at checkout, when it exists, is active, unexpired and not exhausted; else one generic refusal. */
export async function findCheckoutCoupon(prisma: PrismaClient, tenantId: string, code: string | null, now: Date): Promise<Coupon | null> {
  if (!code) return null;
  const coupon = await prisma.coupon.findUnique({ where: { tenantId_code: { tenantId, code } } });
  if (!coupon) throw couponRefusal("unknown");
  if (!coupon.active) throw couponRefusal("inactive");
  if (coupon.expiresAt && coupon.expiresAt.getTime() <= now.getTime()) throw couponRefusal("expired");
  if (coupon.maxRedemptions !== null && coupon.redeemedCount >= coupon.maxRedemptions) throw couponRefusal("exhausted");
  return coupon;
}
