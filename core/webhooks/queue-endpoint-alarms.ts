// The vendor's alarm for a webhook endpoint whose delivery ran out of retries: an e-mail to the
// tenant's contact addresses, queued in the transaction that records the exhausted delivery. At most
// one per endpoint per day (the source key), however many of its deliveries are exhausted.
import { dailyAlarmKey } from "../emails/alarm-key.ts";
import { queueEmails, type QueuedEmail } from "../emails/queue-email.ts";
import type { Tx } from "../shared/tx.ts";

export interface ExhaustedDelivery {
  deliveryId: string;
  tenantId: string;
  /** When its last attempt fell due (the tenant's clock) and when it started (wall clock). */
  scheduledAt: Date;
  startedAt: Date;
}

export async function queueEndpointAlarms(tx: Tx, exhausted: ExhaustedDelivery[]): Promise<number> {
  if (exhausted.length === 0) return 0;
  const byDelivery = new Map(exhausted.map((e) => [e.deliveryId, e]));
  const tenantIds = [...new Set(exhausted.map((e) => e.tenantId))];
  const tenants = new Map(
    (await tx.tenant.findMany({ where: { id: { in: tenantIds }, contactEmails: { isEmpty: false } }, select: { id: true, mode: true, clockAt: true } })).map((t) => [t.id, t]),
  );
  if (tenants.size === 0) return 0; // nobody to tell
  // Only the deliveries this write left exhausted (one that moved on meanwhile kept its state).
  const rows = await tx.webhookDelivery.findMany({
    where: { id: { in: [...byDelivery.keys()] }, tenantId: { in: [...tenants.keys()] }, status: "EXHAUSTED" },
    select: {
      id: true,
      tenantId: true,
      endpoint: { select: { id: true, url: true } },
      event: { select: { type: true } },
    },
    orderBy: { id: "asc" },
  });
  const emails = new Map<string, QueuedEmail>();
  for (const d of rows) {
    // Business time of the last attempt: a sandbox clock stands still between advanceClock stops, so
    // that attempt happened at the instant it fell due (as the retry schedule counts it).
    const tenant = tenants.get(d.tenantId)!;
    const attempt = byDelivery.get(d.id)!;
    const at = tenant.mode === "SANDBOX" && tenant.clockAt ? attempt.scheduledAt : attempt.startedAt;
    const sourceKey = dailyAlarmKey(d.endpoint.id, at);
    if (emails.has(`${d.tenantId}/${sourceKey}`)) continue;
    emails.set(`${d.tenantId}/${sourceKey}`, {
      tenantId: d.tenantId,
      content: { template: "webhook_endpoint_failing", params: { endpointUrl: d.endpoint.url, reason: "exhausted", at: at.toISOString(), eventType: d.event.type } },
      sourceKey,
      at,
    });
  }
  return queueEmails(tx, [...emails.values()]);
}
