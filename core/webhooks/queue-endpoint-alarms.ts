// The vendor's alarm for a webhook endpoint whose delivery ran out of retries: an e-mail to the
// tenant's contact addresses, queued in the transaction that records the exhausted delivery. At most
// one per endpoint per day (the source key), however many of its deliveries are exhausted.
import { dailyAlarmKey } from "../emails/alarm-key.ts";
import { queueEmails, type QueuedEmail } from "../emails/queue-email.ts";
import { tenantClock, type Clock } from "../shared/clock.ts";
import type { Tx } from "../shared/tx.ts";

export async function queueEndpointAlarms(tx: Tx, input: { exhausted: { deliveryId: string; tenantId: string }[]; wall: Clock }): Promise<number> {
  if (input.exhausted.length === 0) return 0;
  const tenantIds = [...new Set(input.exhausted.map((e) => e.tenantId))];
  const tenants = new Map(
    (await tx.tenant.findMany({ where: { id: { in: tenantIds }, contactEmails: { isEmpty: false } }, select: { id: true, mode: true, clockAt: true } })).map((t) => [t.id, t]),
  );
  if (tenants.size === 0) return 0; // nobody to tell
  // Only the deliveries this write left exhausted (one that moved on meanwhile kept its state).
  const exhausted = await tx.webhookDelivery.findMany({
    where: { id: { in: input.exhausted.map((e) => e.deliveryId) }, tenantId: { in: [...tenants.keys()] }, status: "EXHAUSTED" },
    select: {
      tenantId: true,
      endpoint: { select: { id: true, url: true } },
      event: { select: { type: true } },
    },
    orderBy: { id: "asc" },
  });
  const emails = new Map<string, QueuedEmail>();
  for (const d of exhausted) {
    const at = tenantClock(tenants.get(d.tenantId)!, input.wall).now();
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
