// GET /v1/subscriptions/{id}/gateway-events rows from the typed GatewayEvent selection.
import { gatewayEventBody, type GatewayEventFields } from "../../core/gateways/gateway-event-payload.ts";

export type GatewayEventSelection = GatewayEventFields;

export const toGatewayEventRow = (e: GatewayEventSelection) => gatewayEventBody(e);
