// Column lists that read a whole row as Prisma's model type, for the billing run's per-subscription
// reads sent without Prisma's compiler (prisma/direct-sql.ts). Enums come back as text, as Prisma's do.
// A column added to one of these models must be added here too: test/core/row-columns.test.ts
// compares each list with a Prisma read of the same row.

/**
 * `prefix`: the table's alias in the statement ("s" gives "s.id"). `as`: put before each field's name
 * ("lp_" gives "lp_id"), to read two tables' rows in one statement (`pickRow` takes them apart).
 */
function columns(prefix: string, list: [field: string, sql: string][], as = ""): string {
  const p = prefix ? `${prefix}.` : "";
  return selectList(list.map(([field, sql]) => [field, sql.replace(/\{\}/g, p)]), as);
}

/** `sql AS "<as><field>"` for each pair: a statement's select list whose rows read as `field`s (`pickRow` with `as`). */
export function selectList(list: [field: string, sql: string][], as = ""): string {
  return list.map(([field, sql]) => `${sql} AS "${as}${field}"`).join(", ");
}

/** The fields read under `as` (see `columns`) as a row of their own; null when its id is null (no row joined). */
export function pickRow<T>(row: Record<string, unknown>, as: string): T | null {
  if (row[`${as}id`] === null || row[`${as}id`] === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (k.startsWith(as)) out[k.slice(as.length)] = v;
  return out as T;
}

export const customerColumns = (prefix = "", as = "") =>
  columns(
    prefix,
    [
      ["id", "{}id"],
      ["tenantId", "{}tenant_id"],
      ["externalId", "{}external_id"],
      ["email", "{}email"],
      ["name", "{}name"],
      ["phone", "{}phone"],
      ["doc", "{}doc"],
      ["createdAt", "{}created_at"],
      ["updatedAt", "{}updated_at"],
    ],
    as,
  );

export const subscriptionColumns = (prefix = "", as = "") =>
  columns(prefix, [
    ["id", "{}id"],
    ["tenantId", "{}tenant_id"],
    ["customerId", "{}customer_id"],
    ["offerId", "{}offer_id"],
    ["planId", "{}plan_id"],
    ["status", "{}status::text"],
    ["collectionMethod", "{}collection_method::text"],
    ["paymentMethodId", "{}payment_method_id"],
    ["currency", "{}currency"],
    ["currentPeriodStart", "{}current_period_start"],
    ["currentPeriodEnd", "{}current_period_end"],
    ["nextBillingAt", "{}next_billing_at"],
    ["anchorDay", "{}anchor_day"],
    ["trialEndsAt", "{}trial_ends_at"],
    ["cancelAtPeriodEnd", "{}cancel_at_period_end"],
    ["canceledAt", "{}canceled_at"],
    ["cancelReason", "{}cancel_reason"],
    ["pendingOfferId", "{}pending_offer_id"],
    ["pendingOfferEffectiveAt", "{}pending_offer_effective_at"],
    ["pendingKeepCoupon", "{}pending_keep_coupon"],
    ["tracking", "{}tracking"],
    ["lastPaymentId", "{}last_payment_id"],
    ["paidCycles", "{}paid_cycles"],
    ["referralCode", "{}referral_code"],
    ["billingLeaseUntil", "{}billing_lease_until"],
    ["createdAt", "{}created_at"],
    ["updatedAt", "{}updated_at"],
  ], as);

export const invoiceColumns = (prefix = "", as = "") =>
  columns(prefix, [
    ["id", "{}id"],
    ["tenantId", "{}tenant_id"],
    ["subscriptionId", "{}subscription_id"],
    ["kind", "{}kind::text"],
    ["periodStart", "{}period_start"],
    ["periodEnd", "{}period_end"],
    ["dueAt", "{}due_at"],
    ["amountCents", "{}amount_cents"],
    ["currency", "{}currency"],
    ["status", "{}status::text"],
    ["attemptCount", "{}attempt_count"],
    ["nextAttemptAt", "{}next_attempt_at"],
    ["paidAt", "{}paid_at"],
    ["discountCents", "{}discount_cents"],
    ["createdAt", "{}created_at"],
  ], as);

export const paymentMethodColumns = (prefix = "", as = "") =>
  columns(prefix, [
    ["id", "{}id"],
    ["tenantId", "{}tenant_id"],
    ["customerId", "{}customer_id"],
    ["gatewayAccountId", "{}gateway_account_id"],
    ["token", "{}token"],
    ["brand", "{}brand"],
    ["last4", "{}last4"],
    ["expMonth", "{}exp_month"],
    ["expYear", "{}exp_year"],
    ["detachedAt", "{}detached_at"],
    ["createdAt", "{}created_at"],
  ], as);

export const gatewayAccountColumns = (prefix = "", as = "") =>
  columns(prefix, [
    ["id", "{}id"],
    ["tenantId", "{}tenant_id"],
    ["provider", "{}provider"],
    ["name", "{}name"],
    ["capabilities", "{}capabilities"],
    ["createdAt", "{}created_at"],
    ["credentialsCiphertext", "{}credentials_ciphertext"],
    ["credentialHints", "{}credential_hints"],
    ["credentialsUpdatedAt", "{}credentials_updated_at"],
    ["credentialsRefusedAt", "{}credentials_refused_at"],
    ["apiBaseUrl", "{}api_base_url"],
    ["isDefault", "{}is_default"],
  ], as);

export const paymentColumns = (prefix = "", as = "") =>
  columns(prefix, [
    ["id", "{}id"],
    ["tenantId", "{}tenant_id"],
    ["customerId", "{}customer_id"],
    ["subscriptionId", "{}subscription_id"],
    ["invoiceId", "{}invoice_id"],
    ["orderId", "{}order_id"],
    ["paidInvoiceId", "{}paid_invoice_id"],
    ["paidOrderId", "{}paid_order_id"],
    ["kind", "{}kind::text"],
    ["method", "{}method::text"],
    ["methodKind", "{}method_kind"],
    ["amountCents", "{}amount_cents"],
    ["amountReceivedCents", "{}amount_received_cents"],
    ["currency", "{}currency"],
    ["status", "{}status::text"],
    ["attemptNo", "{}attempt_no"],
    ["idempotencyKey", "{}idempotency_key"],
    ["refundedAmountCents", "{}refunded_amount_cents"],
    ["refundInFlight", "{}refund_in_flight"],
    ["refundReason", "{}refund_reason"],
    ["failureCode", "{}failure_code"],
    ["gatewayAccountId", "{}gateway_account_id"],
    ["provider", "{}provider"],
    ["gatewayChargeId", "{}gateway_charge_id"],
    ["paymentMethodId", "{}payment_method_id"],
    ["cardBrand", "{}card_brand"],
    ["cardLast4", "{}card_last4"],
    ["pixCopyPaste", "{}pix_copy_paste"],
    ["pixExpiresAt", "{}pix_expires_at"],
    ["paidAt", "{}paid_at"],
    ["createdAt", "{}created_at"],
  ], as);
