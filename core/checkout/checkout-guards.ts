// Read-only checks a checkout makes before touching the gateway: the customer key and the coupon.
// Each refusal names the form field it is about.
import type { Coupon, Customer, PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { couponRefusal } from "./refusal-texts.ts";

export function fieldError(field: string, error: string): AppError {
  return new AppError("invalid_field", { error, extra: { field } });
}

/** The existing customer this checkout belongs to, or null for a new one. */
export async function findCheckoutCustomer(
  prisma: PrismaClient,
  tenantId: string,
  input: { externalId: string | null; email: string },
): Promise<Customer | null> {
  const byEmail = await prisma.customer.findUnique({ where: { tenantId_email: { tenantId, email: input.email } } });
  if (!input.externalId) return byEmail;
  const byExternalId = await prisma.customer.findUnique({ where: { tenantId_externalId: { tenantId, externalId: input.externalId } } });
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
