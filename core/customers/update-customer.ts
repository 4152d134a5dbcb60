// POST /v1/customers/{external_id}: edit a customer's name, e-mail and mobile. Null or absent fields
// are left untouched; the record must end with a valid mobile. The change and its audit-log row
// commit together, then the record is pushed to the customer's gateways (a failure is a notice).
// Allowed in read-only mode (customer edits are exempt). `doc` and `external_id` are not editable.
import type { Runtime } from "../runtime.ts";
import { parseCustomerEmail, parseCustomerName, parseCustomerPhone } from "./customer-fields.ts";
import { saveCustomerEdit, type CustomerChanges } from "./save-customer-edit.ts";
import { syncCustomerToGateways } from "./sync-customer.ts";

export interface UpdateCustomerInput {
  tenantId: string;
  externalId: string;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  /** operator, or key:<api key id> */
  actor: string;
  /** The tenant's clock (gateway event rows). */
  now: Date;
}

export interface UpdateCustomerResult {
  name: string;
  email: string;
  phone: string;
  notice: string | null;
}

export async function updateCustomer(runtime: Runtime, input: UpdateCustomerInput): Promise<UpdateCustomerResult> {
  const changes: CustomerChanges = {};
  if (input.name != null) changes.name = parseCustomerName(input.name);
  if (input.email != null) changes.email = parseCustomerEmail(input.email);
  if (input.phone != null) changes.phone = parseCustomerPhone(input.phone);
  const { customer, changed } = await saveCustomerEdit(runtime.db.prisma, {
    tenantId: input.tenantId,
    externalId: input.externalId,
    changes,
    requireMobile: true,
    actor: input.actor,
    action: "customer.updated",
  });
  // An empty edit of a complete record changes nothing and syncs nothing. Resending unchanged values
  // does sync: that is how a failed sync is retried.
  const named = Object.keys(changes).length > 0;
  const notice = named || changed ? await syncCustomerToGateways(runtime, customer, input.now) : null;
  return { name: customer.name, email: customer.email, phone: customer.phone!, notice };
}
