// Gateway event row of the contract, from the camelCase fields of the GraphQL GatewayEvent type.
// Pure (the REST facade builds GET /v1/subscriptions/{id}/gateway-events with it). The row holds no
// personal data and no secret by construction.
export interface GatewayEventFields {
  id: string;
  provider: string;
  kind: string;
  outcome: string;
  code: string;
  gatewayId: string;
  detailCode: string;
  httpStatus: number;
  amountCents: number;
  createdAt: string;
}

export function gatewayEventBody(e: GatewayEventFields) {
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
    created_at: e.createdAt,
  };
}
