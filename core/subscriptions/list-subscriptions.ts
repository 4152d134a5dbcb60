// GET /v1/subscriptions: the tenant's subscriptions by id, filtered by status and offer.
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { keyset, toPage, type PageArgs } from "../shared/pagination.ts";
import { SUBSCRIPTION_STATUSES, toDbStatus } from "./statuses.ts";

export interface ListSubscriptionsInput extends PageArgs {
  tenantId: string;
  /** One status or several joined by commas. */
  status?: string | null;
  offerId?: string | null;
}

export function parseStatusFilter(status: string | null | undefined) {
  if (status == null || status === "") return undefined;
  const values = status.split(",").map((s) => s.trim());
  const unknown = values.filter((v) => !(SUBSCRIPTION_STATUSES as readonly string[]).includes(v));
  if (unknown.length) {
    throw new AppError("invalid_status", {
      error: `unknown status: ${unknown.join(", ")}`,
      extra: { accepted: [...SUBSCRIPTION_STATUSES] },
    });
  }
  return values.map(toDbStatus);
}

export async function listSubscriptions(
  prisma: PrismaClient,
  input: ListSubscriptionsInput,
  query: { include?: Prisma.SubscriptionInclude; select?: Prisma.SubscriptionSelect } = {},
) {
  const k = keyset(input, "subscription");
  const statuses = parseStatusFilter(input.status);
  const rows = await prisma.subscription.findMany({
    ...query,
    where: {
      tenantId: input.tenantId,
      ...(statuses ? { status: { in: statuses } } : {}),
      ...(input.offerId ? { offerId: input.offerId } : {}),
      ...(k.afterId ? { id: { gt: k.afterId } } : {}),
    },
    orderBy: { id: "asc" },
    take: k.take,
  });
  return toPage(rows, k);
}
