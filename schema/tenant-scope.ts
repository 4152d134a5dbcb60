// Which tenant a call acts on: a tenant key always acts on its own tenant; the operator names one.
import { tenantClock, type Clock } from "../core/shared/clock.ts";
import { AppError, notFound } from "../core/shared/errors.ts";
import type { Context } from "./context.ts";

export function tenantIdFor(ctx: Context, requested?: string | null): string {
  if (ctx.actor.kind === "tenant") {
    if (requested && requested !== ctx.actor.tenantId) throw notFound("tenant");
    return ctx.actor.tenantId;
  }
  if (ctx.actor.kind !== "operator") throw new AppError("insufficient_scope");
  if (!requested) throw new AppError("invalid_argument", { error: "tenantId is required for the operator" });
  return requested;
}

export async function clockFor(ctx: Context, tenantId: string): Promise<Clock> {
  if (ctx.actor.kind === "tenant") return ctx.clock;
  const tenant = await ctx.db.prisma.tenant.findUnique({ where: { id: tenantId }, select: { mode: true, clockAt: true } });
  if (!tenant) throw notFound("tenant");
  return tenantClock(tenant, ctx.runtime.wallClock);
}
