// Enable or disable an endpoint. Disabled: no new event is fanned out to it and its pending deliveries
// are held (claim-deliveries.ts skips them) until it is enabled again, when they go out at once; an
// attempt already in flight finishes. Disabling queues the vendor's "disabled" alarm e-mail in the
// same transaction (at most one per endpoint per day of the tenant's clock).
import type { Db } from "../../prisma/client.ts";
import { dailyAlarmKey } from "../emails/alarm-key.ts";
import { queueEmails } from "../emails/queue-email.ts";
import { WEBHOOKS_CHANNEL } from "./dispatcher.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";

export interface SetWebhookEndpointEnabledInput {
  tenantId: string;
  endpointId: string;
  enabled: boolean;
  /** Business time (the tenant's clock): the e-mail's date. */
  at: Date;
}

export async function setWebhookEndpointEnabled(db: Db, input: SetWebhookEndpointEnabledInput) {
  const updated = await db.prisma.$transaction(async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, input.tenantId, input.endpointId);
    // Only a real change counts: a second "disable" writes nothing and sends no second e-mail.
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: endpoint.id, tenantId: input.tenantId, deletedAt: null, active: !input.enabled },
      data: { active: input.enabled },
    });
    if (count === 1 && !input.enabled) {
      await queueEmails(tx, [
        {
          tenantId: input.tenantId,
          content: { template: "webhook_endpoint_failing", params: { endpointUrl: endpoint.url, reason: "disabled", at: input.at.toISOString(), eventType: null } },
          sourceKey: dailyAlarmKey(`${endpoint.id}:disabled`, input.at),
          at: input.at,
        },
      ]);
    }
    return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
  });
  // Held deliveries fall due again: wake the dispatchers rather than wait for their poll.
  if (input.enabled) await db.notify(WEBHOOKS_CHANNEL, "");
  return updated;
}
