// The write shared by both customer edits: lock the row, apply the already-checked fields, and write
// the audit-log row in the same transaction. A request that changes nothing writes nothing.
import type { Customer, PrismaClient } from "../../generated/prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { storedMobile } from "./customer-fields.ts";

/** Fields already normalized by customer-fields.ts; undefined = left untouched. */
export interface CustomerChanges {
  name?: string;
  email?: string;
  phone?: string;
}

export interface SaveCustomerEditInput {
  tenantId: string;
  externalId: string;
  changes: CustomerChanges;
  /** The record must end with a valid mobile (POST /v1/customers/{external_id}). */
  requireMobile: boolean;
  /** operator, or key:<api key id> */
  actor: string;
  action: "customer.updated" | "customer.email_updated";
}

const AUDITED = ["name", "email", "phone"] as const;

export async function saveCustomerEdit(prisma: PrismaClient, input: SaveCustomerEditInput): Promise<{ customer: Customer; changed: boolean }> {
  const { tenantId, externalId, changes } = input;
  try {
    return await prisma.$transaction(async (tx) => {
      // Two edits of one customer serialize here, so the audit diff is always against what was replaced.
      const [row] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM customers WHERE tenant_id = ${tenantId} AND external_id = ${externalId} FOR UPDATE`;
      if (!row) throw notFound("customer");
      const customer = await tx.customer.findUniqueOrThrow({ where: { id: row.id } });
      const next = { name: changes.name ?? customer.name, email: changes.email ?? customer.email, phone: changes.phone ?? customer.phone };
      if (input.requireMobile) {
        // An old customer without a valid mobile needs one for any edit; a stored one is kept in E.164.
        next.phone = changes.phone ?? storedMobile(customer.phone);
        if (!next.phone) throw new AppError("phone_required");
      }
      if (next.email !== customer.email) {
        const taken = await tx.customer.findUnique({ where: { tenantId_email: { tenantId, email: next.email } }, select: { id: true } });
        if (taken) throw new AppError("email_taken");
      }
      // Only these three fields, by name: the diff can never carry anything else (no secret, no card data).
      const diff: Record<string, { from: string | null; to: string | null }> = {};
      for (const field of AUDITED) if (next[field] !== customer[field]) diff[field] = { from: customer[field], to: next[field] };
      if (!Object.keys(diff).length) return { customer, changed: false };
      const updated = await tx.customer.update({ where: { id: customer.id }, data: next });
      await tx.auditLog.create({
        data: { id: newId("audit"), tenantId, actor: input.actor, action: input.action, targetType: "customer", targetId: customer.id, diff },
      });
      return { customer: updated, changed: true };
    });
  } catch (e) {
    // Two concurrent changes to the same address: the unique index decides.
    if ((e as { code?: string })?.code === "P2002") throw new AppError("email_taken");
    throw e;
  }
}
