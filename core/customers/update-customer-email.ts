// POST /v1/customers/{external_id}/email: change a customer's e-mail (unique per tenant), with an
// audit-log row in the same transaction. Allowed in read-only mode (customer edits are exempt).
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { findCustomer } from "./find-customer.ts";

const emailSchema = z.string().trim().toLowerCase().email().max(254);

export interface UpdateCustomerEmailInput {
  tenantId: string;
  externalId: string;
  email: unknown;
  actor: string;
}

export async function updateCustomerEmail(prisma: PrismaClient, input: UpdateCustomerEmailInput) {
  const customer = await findCustomer(prisma, input);
  const parsed = emailSchema.safeParse(input.email);
  if (!parsed.success) throw new AppError("invalid_email");
  const email = parsed.data;
  if (email === customer.email) return { email, notice: null };
  const taken = await prisma.customer.findUnique({ where: { tenantId_email: { tenantId: input.tenantId, email } }, select: { id: true } });
  if (taken) throw new AppError("email_taken");
  await prisma.$transaction(async (tx) => {
    await tx.customer.update({ where: { id: customer.id }, data: { email } });
    await tx.auditLog.create({
      data: {
        id: newId("audit"),
        tenantId: input.tenantId,
        actor: input.actor,
        action: "customer.email_updated",
        targetType: "customer",
        targetId: customer.id,
        diff: { email: { from: customer.email, to: email } },
      },
    });
  }).catch((e: { code?: string }) => {
    // Two concurrent changes to the same address: the unique index decides.
    if (e?.code === "P2002") throw new AppError("email_taken");
    throw e;
  });
  // Gateway sync arrives with the gateway adapters; nothing to sync yet, so no notice.
  return { email, notice: null as string | null };
}
