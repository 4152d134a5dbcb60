// Gateway event row of the contract. The row holds no personal data and no secret by construction.
import type { GatewayEvent } from "../../generated/prisma/client.ts";

export function gatewayEventRow(e: GatewayEvent) {
  return {
    id: e.id,
    provider: e.provider,
    kind: e.kind,
    outcome: e.outcome,
    code: e.code,
    gateway_id: e.gatewayId,
    detail_code: e.detailCode,
    http_status: e.httpStatus,
    amount_cents: e.amountCents,
    created_at: e.createdAt.toISOString(),
  };
}
