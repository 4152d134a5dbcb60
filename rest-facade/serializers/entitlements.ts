// GET /v1/entitlements from the typed Entitlements selection.
export interface EntitlementsSelection {
  customerId: string | null;
  subscriptions: { id: string; status: string; planId: string; interval: string; currentPeriodEnd: string | null; entitlements: unknown }[];
  mergedEntitlements: unknown;
}

export const toEntitlements = (e: EntitlementsSelection) => ({
  customer_id: e.customerId,
  subscriptions: e.subscriptions.map((s) => ({
    id: s.id,
    status: s.status.toLowerCase(),
    plan_id: s.planId,
    interval: s.interval.toLowerCase(),
    current_period_end: s.currentPeriodEnd,
    entitlements: s.entitlements,
  })),
  merged_entitlements: e.mergedEntitlements,
});
