// The webhook envelope, also the element of GET /v1/events.
export interface EventRow {
  id: string;
  tenantId: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

export function eventEnvelope(e: EventRow) {
  return { id: e.id, type: e.type, created_at: e.createdAt.toISOString(), tenant_id: e.tenantId, data: e.data };
}
