// The vendor's alarm for a gateway account whose credentials the provider refuses (its 401): the
// account marked refused, and an e-mail to the tenant's contact addresses, both in the transaction that
// logs the refused call.
// At most one per account per day (the source key), however many calls are refused that day.
import { dailyAlarmKey } from "../emails/alarm-key.ts";
import { queueEmails, type QueuedEmail } from "../emails/queue-email.ts";
import type { Tx } from "../shared/tx.ts";
import type { GatewayEventInput } from "./log-gateway-event.ts";

/** Our code for a provider's authentication error (the adapters' GatewayUnavailable). */
export const CREDENTIALS_REFUSED = "authentication_failed";

export function refusesCredentials(e: GatewayEventInput): boolean {
  return e.detailCode === CREDENTIALS_REFUSED && !!e.gatewayAccountId;
}

export async function queueCredentialsAlarms(tx: Tx, events: GatewayEventInput[]): Promise<number> {
  const refused = events.filter(refusesCredentials);
  if (refused.length === 0) return 0;
  const accounts = new Map(
    (
      await tx.gatewayAccount.findMany({
        where: { OR: refused.map((e) => ({ id: e.gatewayAccountId!, tenantId: e.tenantId })) },
        select: { id: true, name: true, provider: true },
      })
    ).map((a) => [a.id, a]),
  );
  // The account shows the refusal (the panel's home page) until its credentials are replaced.
  for (const e of refused) {
    await tx.gatewayAccount.updateMany({ where: { id: e.gatewayAccountId!, tenantId: e.tenantId }, data: { credentialsRefusedAt: e.at } });
  }
  const emails = new Map<string, QueuedEmail>();
  for (const e of refused) {
    const account = accounts.get(e.gatewayAccountId!);
    if (!account) continue;
    // Business time of the call (the tenant's clock), so a sandbox day is the tenant's day.
    const sourceKey = dailyAlarmKey(account.id, e.at);
    emails.set(`${e.tenantId}/${sourceKey}`, {
      tenantId: e.tenantId,
      content: { template: "gateway_credentials_refused", params: { provider: account.provider, account: account.name || account.id, at: e.at.toISOString() } },
      sourceKey,
      at: e.at,
    });
  }
  return queueEmails(tx, [...emails.values()]);
}
