// POST /v1/customers/{external_id}/email: change a customer's e-mail (unique per tenant), with an
// audit-log row in the same transaction, then the same gateway sync as a full customer edit.
// Allowed in read-only mode (customer edits are exempt). Unlike the full edit it does not demand a
// mobile: its body cannot carry one, and an old customer without phone must still be reachable.
import type { Runtime } from "../runtime.ts";
import { parseCustomerEmail } from "./customer-fields.ts";
import { saveCustomerEdit } from "./save-customer-edit.ts";
import { syncCustomerToGateways } from "./sync-customer.ts";

export interface UpdateCustomerEmailInput {
  tenantId: string;
  externalId: string;
  email: unknown;
  /** operator, or key:<api key id> */
  actor: string;
  /** The tenant's clock (gateway event rows). */
  now: Date;
}

export async function updateCustomerEmail(runtime: Runtime, input: UpdateCustomerEmailInput): Promise<{ email: string; notice: string | null }> {
  const email = parseCustomerEmail(input.email);
  const { customer } = await saveCustomerEdit(runtime.db.prisma, {
    tenantId: input.tenantId,
    externalId: input.externalId,
    changes: { email },
    requireMobile: false,
    actor: input.actor,
    action: "customer.email_updated",
  });
  // Sent even when the address did not change: resending is how a failed sync is retried.
  const notice = await syncCustomerToGateways(runtime, customer, input.now);
  return { email: customer.email, notice };
}
