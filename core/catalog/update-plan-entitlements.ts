// Operator: edit a plan's entitlements. Payloads read the plan live (golden rule), and every living
// subscription of the plan gets a subscription.updated in the same transaction.
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { recordEvent } from "../events/record-event.ts";
import { tenantClock, type Clock } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import { subscriptionDetailInclude, subscriptionPayload } from "../payloads/subscription-payload.ts";
import { STARTED } from "../shared/status-sets.ts";
import { parseEntitlements } from "./entitlements-input.ts";

const BATCH = 500;

export async function updatePlanEntitlements(prisma: PrismaClient, wall: Clock, input: { planId: string; entitlements: unknown }) {
  const entitlements = parseEntitlements(input.entitlements);
  const existing = await prisma.plan.findUnique({ where: { id: input.planId }, include: { tenant: { select: { mode: true, clockAt: true } } } });
  if (!existing) throw notFound("plan");
  const at = tenantClock(existing.tenant, wall).now();
  return prisma.$transaction(
    async (tx) => {
      const plan = await tx.plan.update({ where: { id: existing.id }, data: { entitlements: entitlements as Prisma.InputJsonValue } });
      let after: string | undefined;
      for (;;) {
        const subs = await tx.subscription.findMany({
          // Living: not canceled, and born (a checkout awaiting its first Pix payment has had no event yet,
          // and subscription.updated never carries pending_first_payment).
          where: { tenantId: plan.tenantId, planId: plan.id, status: { in: [...STARTED] }, ...(after ? { id: { gt: after } } : {}) },
          include: subscriptionDetailInclude,
          orderBy: { id: "asc" },
          take: BATCH,
        });
        for (const s of subs) {
          await recordEvent(tx, { tenantId: plan.tenantId, type: "subscription.updated", data: subscriptionPayload(s), at });
        }
        if (subs.length < BATCH) break;
        after = subs[subs.length - 1]!.id;
      }
      return plan;
    },
    { timeout: 60_000 },
  );
}
