// Shared bits of the lifecycle tests: the recorded cancellation e-mails (GraphQL) and a tenant in read-only mode.
import { op } from "../helpers/http.ts";
import type { TestTenant } from "../helpers/tenant.ts";

export async function emails(t: TestTenant): Promise<{ kind: string; to: string; subject: string; body: string; created_at: string; customer_id: string | null }[]> {
  const data = await op(`query($t: ID!) { emailMessages(tenantId: $t) { id customerId kind to subject body createdAt } }`, { t: t.tenantId });
  // The cancellation e-mails only: a paid checkout also queues its receipt.
  return data.emailMessages.filter((e: any) => e.kind === "subscription_canceled").map((e: any) => ({ kind: e.kind, to: e.to, subject: e.subject, body: e.body, created_at: e.createdAt, customer_id: e.customerId }));
}

export async function setReadOnly(t: TestTenant, readOnly: boolean): Promise<void> {
  await op(`mutation($t: ID!, $r: Boolean!) { setTenantReadOnly(tenantId: $t, readOnly: $r) { id } }`, { t: t.tenantId, r: readOnly });
}

/** A well-formed sub_ id that exists nowhere. */
export const UNKNOWN_SUB = "sub_01HZZZZZZZZZZZZZZZZZZZZZZZ";
