// The delivery log: deliveries (with their attempts) in id order, which is event order. Tenants read
// their own; the operator may read across tenants, e.g. every exhausted delivery (the alarm list).
import type { PrismaClient, DeliveryStatus } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { DEFAULT_LIMIT, MAX_LIMIT, toPage } from "../shared/pagination.ts";

// Delivery ids are `dlv_<event ULID>_<endpoint ULID>` (made in SQL by the fan-out).
const DELIVERY_ID = /^dlv_[0-9A-HJKMNP-TV-Z]{26}_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface ListDeliveriesInput {
  /** Null only for the operator reading every tenant. */
  tenantId: string | null;
  eventId?: string | null;
  endpointId?: string | null;
  status?: DeliveryStatus | null;
  limit?: number | null;
  after?: string | null;
  /** Newest first (the panel's log); `after` then pages towards older deliveries. */
  newestFirst?: boolean | null;
}

export async function listDeliveries(prisma: PrismaClient, input: ListDeliveriesInput) {
  const limit = input.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new AppError("invalid_limit");
  if (input.after != null && !DELIVERY_ID.test(input.after)) throw new AppError("invalid_cursor");
  const rows = await prisma.webhookDelivery.findMany({
    where: {
      ...(input.tenantId ? { tenantId: input.tenantId } : {}),
      ...(input.eventId ? { eventId: input.eventId } : {}),
      ...(input.endpointId ? { endpointId: input.endpointId } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.after ? { id: input.newestFirst ? { lt: input.after } : { gt: input.after } } : {}),
    },
    orderBy: { id: input.newestFirst ? "desc" : "asc" },
    take: limit + 1,
  });
  return toPage(rows, { take: limit + 1, afterId: input.after ?? undefined, limit });
}
