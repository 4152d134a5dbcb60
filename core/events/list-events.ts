// GET /v1/events and events(...): the tenant's events of the last 30 days (tenant clock), for replay.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { keyset, toPage, type PageArgs } from "../shared/pagination.ts";
import { EVENT_TYPES, isEventType, TEST_EVENT_TYPE } from "./event-types.ts";

export const EVENT_RETENTION_DAYS = 30;

export async function listEvents(prisma: PrismaClient, input: PageArgs & { tenantId: string; type?: string | null; now: Date }) {
  const k = keyset(input, "event");
  if (input.type != null && input.type !== "" && !isEventType(input.type)) {
    throw new AppError("invalid_parameter", { error: `unknown event type: ${input.type}`, extra: { accepted: [...EVENT_TYPES] } });
  }
  const since = new Date(input.now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  const rows = await prisma.event.findMany({
    where: {
      tenantId: input.tenantId,
      createdAt: { gte: since },
      // A panel test event went to one endpoint only; it is no billing event to replay.
      ...(input.type ? { type: input.type } : { type: { not: TEST_EVENT_TYPE } }),
      ...(k.afterId ? { id: { gt: k.afterId } } : {}),
    },
    orderBy: { id: "asc" },
    take: k.take,
  });
  return toPage(rows, k);
}
