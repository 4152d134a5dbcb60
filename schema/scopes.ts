// Which auth scope failed first, so the refusal maps to insufficient_scope or operator_only; and the
// read-only account rule, applied to every mutation in one place (readOnlyAccounts plugin below).
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { AuthFailure } from "@pothos/plugin-scope-auth";
import type { GraphQLFieldResolver } from "graphql";
import { AppError } from "../core/shared/errors.ts";
import type { Actor, Context } from "./context.ts";
import type { Scopes } from "./builder.ts";
import { ROLE_PERMISSIONS } from "../core/team/team-rules.ts";

/**
 * The scopes an actor holds, for scope-auth and for the up-front check (root-field-access.ts). A panel
 * member who owes two-factor (the owner requires it) holds only `user` until they turn it on.
 */
export function grantsOf(actor: Actor): Scopes {
  const user = actor.kind === "tenant" ? actor.user : undefined;
  const full = actor.kind === "tenant" && !user?.owesTwoFactor;
  const role = user && full ? ROLE_PERMISSIONS[user.role] : null;
  return {
    operator: actor.kind === "operator",
    tenant: full,
    write: actor.kind === "operator" || (full && actor.scope === "WRITE"),
    panel: actor.kind === "panel",
    user: !!user,
    developer: !!role?.developer,
    teamAdmin: !!role?.team,
    owner: !!role?.owner,
  };
}

/** Scopes only a panel member can hold: failing one is a member's role_forbidden, anyone else's insufficient_scope. */
export const ROLE_SCOPES: ReadonlySet<string> = new Set(["developer", "teamAdmin", "owner"]);

export const isMember = (actor: Actor): boolean => actor.kind === "tenant" && !!actor.user;

/** A member's own sign-out and two-factor set-up stay open in a read-only account. */
export const MEMBER_SELF_SERVICE: ReadonlySet<string> = new Set(["signOut", "startTwoFactor", "enableTwoFactor", "disableTwoFactor"]);

/** Every scope a refusal names, in order: `{ operator, developer }` failed by a member names both. */
export function failedScopes(failure: AuthFailure): string[] {
  if (failure.kind === "AuthScope") return [failure.scope];
  if ("failures" in failure) return failure.failures.flatMap(failedScopes);
  return [];
}

/** Mutations that only read (a secret shown on demand is a mutation so the audit log records it). */
export const READS_RECORDED_AS_MUTATIONS: ReadonlySet<string> = new Set(["revealWebhookSecret"]);

/**
 * The contract's exceptions to the read-only account mode (billing-api.md, Authentication 7):
 * refund, cancel (immediate and at period end) and customer edit. Every other mutation is refused
 * to a read-only account, including ones added later: a new field is locked until it is named here.
 */
export const ALLOWED_WHEN_READ_ONLY: ReadonlySet<string> = new Set(["refundPayment", "cancelSubscription", "updateCustomer", "updateCustomerEmail"]);

/** A tenant key of an account in read-only mode (the operator is never locked). */
export function isLockedAccount(ctx: Pick<Context, "actor">): boolean {
  return ctx.actor.kind === "tenant" && ctx.actor.readOnly;
}

/**
 * The read-only rule as a builder plugin: every Mutation field not in ALLOWED_WHEN_READ_ONLY
 * answers 403 account_locked to a read-only account. Listed after the scope-auth plugin, so it runs
 * after the field's own scopes: a read key hears insufficient_scope and a tenant calling an
 * operator mutation hears operator_only first, as before.
 */
export class ReadOnlyAccountsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    if (fieldConfig.kind !== "Mutation" || ALLOWED_WHEN_READ_ONLY.has(fieldConfig.name) || MEMBER_SELF_SERVICE.has(fieldConfig.name) || READS_RECORDED_AS_MUTATIONS.has(fieldConfig.name)) return resolver;
    return (parent, args, ctx, info) => {
      if (isLockedAccount(ctx as Context)) throw new AppError("account_locked");
      return resolver(parent, args, ctx, info);
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      readOnlyAccounts: ReadOnlyAccountsPlugin<Types>;
    }
  }
}

export const readOnlyAccountsPlugin = "readOnlyAccounts" as const;
SchemaBuilder.registerPlugin(readOnlyAccountsPlugin, ReadOnlyAccountsPlugin);
