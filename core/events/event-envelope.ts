// The webhook envelope, also the element of GET /v1/events. Pure: the webhook sender and the REST
// facade's events serializer both build it here.
export interface EventRow {
  id: string;
  tenantId: string;
  type: string;
  data: unknown;
  createdAt: Date | string;
}

export function eventEnvelope(e: EventRow) {
  const createdAt = typeof e.createdAt === "string" ? e.createdAt : e.createdAt.toISOString();
  return { id: e.id, type: e.type, created_at: createdAt, tenant_id: e.tenantId, data: e.data };
}
