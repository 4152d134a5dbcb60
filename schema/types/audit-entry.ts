// The audit log as the panel (and a tenant's keys) read it: newest first, in keyset pages.
import { z } from "zod";
import { listAuditActions } from "../../core/audit/list-audit-actions.ts";
import { listAuditEntries } from "../../core/audit/list-audit-entries.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";

interface AuditRow {
  id: string;
  actorKind: string;
  actorLabel: string;
  action: string;
  recordId: string | null;
  address: string;
  createdAt: Date;
}

const AuditEntryRef = builder.objectRef<AuditRow>("AuditEntry").implement({
  description: "One write in the tenant's account: who, what, on which record, when, from where.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "aud_ id (also the page cursor)." }),
    actorKind: t.exposeString("actorKind", { description: "MEMBER, API_KEY or OPERATOR." }),
    actor: t.exposeString("actorLabel", { description: "The member's e-mail, the key's name and hint, or \"operador\"." }),
    action: t.exposeString("action", { description: "The mutation or action name (createApiKey, revokeApiKey, ...)." }),
    recordId: t.exposeString("recordId", { nullable: true, description: "Id of the record acted on, when there is one." }),
    address: t.exposeString("address", { description: "The client's address as the service saw it." }),
    at: t.expose("createdAt", { type: "DateTime", description: "When (wall clock)." }),
  }),
});

const AuditPageRef = builder.objectRef<{ entries: AuditRow[]; next: string | null }>("AuditPage").implement({
  description: "A page of the audit log, newest first.",
  fields: (t) => ({
    entries: t.field({ type: [AuditEntryRef], description: "The entries of this page.", resolve: (p) => p.entries }),
    nextCursor: t.exposeString("next", { nullable: true, description: "Pass as `after` for the next (older) page; null on the last page." }),
  }),
});

builder.queryFields((t) => ({
  auditEntries: t.field({
    type: AuditPageRef,
    description: "The tenant's audit log, newest first. Tenant callers see their own; the operator names the tenant.",
    authScopes: { operator: true, tenant: true },
    args: {
      tenantId: t.arg.id({ required: false, description: "tn_ id (operator)." }),
      actor: t.arg.string({ required: false, description: "Part of the actor (e-mail, key name or hint), any case.", validate: z.string().max(200).nullish() }),
      action: t.arg.string({ required: false, description: "The action, exactly.", validate: z.string().max(100).nullish() }),
      from: t.arg({ type: "DateTime", required: false, description: "Entries at or after this instant." }),
      to: t.arg({ type: "DateTime", required: false, description: "Entries before this instant." }),
      first: t.arg.int({ required: false, description: "Page size, 1 to 500 (default 100)." }),
      after: t.arg.string({ required: false, description: "Cursor: the previous page's nextCursor.", validate: z.string().max(100).nullish() }),
    },
    resolve: (_r, args, ctx) =>
      listAuditEntries(ctx.db.prisma, {
        tenantId: tenantIdFor(ctx, args.tenantId == null ? null : String(args.tenantId)),
        actor: args.actor,
        action: args.action,
        from: args.from,
        to: args.to,
        limit: args.first,
        after: args.after,
      }),
  }),
  auditActions: t.stringList({
    description: "The actions the tenant's audit log holds, in order, for a filter's choices.",
    authScopes: { operator: true, tenant: true },
    args: { tenantId: t.arg.id({ required: false, description: "tn_ id (operator)." }) },
    resolve: (_r, args, ctx) => listAuditActions(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId == null ? null : String(args.tenantId)) }),
  }),
}));
