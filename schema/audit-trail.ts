// The audit log of every write: a builder plugin wraps each Mutation field and, once its resolver
// succeeded, records who (member, API key or operator), what (the field's name), on which record (the
// result's id, else the id argument) and from where (the address the entry gate believed). Use cases run
// their own transactions, so the line is written right after the change commits (decision 0041).
// Sign-in steps before a member is known (the `panel` actor) are not tenant writes and are not logged.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";
import { recordAudit, type AuditActor } from "../core/audit/record-audit.ts";
import type { Prisma, PrismaClient } from "../generated/prisma/client.ts";
import type { Context } from "./context.ts";

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);

/** Who the log names for this call: the member, the API key (with its name and hint), or the operator; null for the panel before sign-in. */
export async function auditActorOf(ctx: Context): Promise<AuditActor | null> {
  const a = ctx.actor;
  if (a.kind === "operator") return { kind: "OPERATOR" };
  if (a.kind !== "tenant") return null;
  if (a.user) return { kind: "MEMBER", id: a.user.id, email: a.user.email };
  const key = await ctx.db.prisma.apiKey.findUnique({ where: { id: a.keyId }, select: { name: true, hint: true } });
  return { kind: "API_KEY", id: a.keyId, name: key?.name ?? "", hint: key?.hint ?? "" };
}

/**
 * Records one action of this call in its tenant's log: for writes outside a Mutation field's own
 * result (revealing a webhook secret, say). Pass the transaction of the change when there is one.
 */
export async function auditAction(
  ctx: Context,
  entry: { tenantId: string; action: string; recordId?: string | null },
  db: PrismaClient | Prisma.TransactionClient = ctx.db.prisma,
): Promise<void> {
  const actor = await auditActorOf(ctx);
  if (!actor) return;
  await recordAudit(db, { ...entry, actor, address: ctx.address, at: ctx.runtime.wallClock.now() });
}

/** The tenant a mutation acted on: the caller's own, else (operator) the tenantId argument or the result's. */
function tenantOf(ctx: Context, field: string, args: Record<string, unknown>, result: unknown): string | null {
  if (ctx.actor.kind === "tenant") return ctx.actor.tenantId;
  if (typeof args.tenantId === "string") return args.tenantId;
  if (isRecord(result)) {
    if (typeof result.tenantId === "string") return result.tenantId;
    if (field === "createTenant" && typeof result.id === "string") return result.id;
  }
  return null;
}

/** The record acted on: the result's id (or its first nested object's), else an id argument. */
function recordOf(args: Record<string, unknown>, result: unknown): string | null {
  if (isRecord(result)) {
    if (typeof result.id === "string") return result.id;
    for (const v of Object.values(result)) if (isRecord(v) && typeof v.id === "string") return v.id;
  }
  for (const [name, v] of Object.entries(args)) if ((name === "id" || name.endsWith("Id")) && name !== "tenantId" && typeof v === "string") return v;
  return null;
}

export class AuditTrailPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    if (fieldConfig.kind !== "Mutation") return resolver;
    const field = fieldConfig.name;
    return async (parent, args, context, info) => {
      const result: unknown = await resolver(parent, args, context, info);
      if (result instanceof Error) return result;
      const ctx = context as Context;
      const tenantId = tenantOf(ctx, field, args as Record<string, unknown>, result);
      if (!tenantId) return result;
      try {
        await auditAction(ctx, { tenantId, action: field, recordId: recordOf(args as Record<string, unknown>, result) });
      } catch (err) {
        // The change is committed: answering an error now would invite a retry of a done write.
        ctx.runtime.logger.error({ err, action: field, tenantId, requestId: ctx.requestId }, "audit entry not written");
      }
      return result;
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      auditTrail: AuditTrailPlugin<Types>;
    }
  }
}

export const auditTrailPlugin = "auditTrail" as const;
SchemaBuilder.registerPlugin(auditTrailPlugin, AuditTrailPlugin);
