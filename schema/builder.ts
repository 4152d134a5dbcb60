// The Pothos builder and its plugins, nothing else. Errors before prisma, as the plugin docs ask.
import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import ValidationPlugin from "@pothos/plugin-validation";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import { AppError } from "../core/shared/errors.ts";
import type { Context } from "./context.ts";
import { auditTrailPlugin } from "./audit-trail.ts";
import { failedScopes, grantsOf, isMember, readOnlyAccountsPlugin, ROLE_SCOPES } from "./scopes.ts";

export interface Scopes {
  /** The service operator (ADMIN_TOKEN). */
  operator: boolean;
  /** A tenant API key of any scope. */
  tenant: boolean;
  /** Operator, or a tenant key with write scope (or a panel member whose role writes). */
  write: boolean;
  /** The panel itself, before anyone signed in: sign-in and invitations only. */
  panel: boolean;
  /** A signed-in panel member, even one who still owes two-factor: their own account and sessions. */
  user: boolean;
  /** A panel member who may manage keys, webhooks and gateways (owner, admin, developer). */
  developer: boolean;
  /** A panel member who may manage the team (owner, admin). */
  teamAdmin: boolean;
  /** The tenant's owner in the panel. */
  owner: boolean;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: Scopes;
  DefaultFieldNullability: false;
  Scalars: {
    // Output may be an ISO string already (typed views of stored JSON, e.g. event data).
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  defaultFieldNullability: false,
  // readOnlyAccounts after scopeAuth: the read-only rule of every mutation runs after the field's scopes.
  // auditTrail then records each mutation that succeeded (audit-trail.ts).
  plugins: [ErrorsPlugin, ScopeAuthPlugin, readOnlyAccountsPlugin, auditTrailPlugin, PrismaPlugin, RelayPlugin, ValidationPlugin],
  errors: { defaultTypes: [] },
  relay: {
    cursorType: "String",
    clientMutationId: "omit",
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    nodeTypeOptions: { description: "An object with a global id." },
    idFieldOptions: { description: "Global id of the object." },
    pageInfoTypeOptions: { description: "Keyset page position. Pages only go forward." },
    hasNextPageFieldOptions: { description: "Whether another page follows." },
    hasPreviousPageFieldOptions: { description: "Always false: keyset pages only go forward." },
    startCursorFieldOptions: { description: "Id of the first row of the page." },
    endCursorFieldOptions: { description: "Id of the last row; pass it as `after` for the next page." },
    cursorFieldOptions: { description: "The row's own id, usable as `after`." },
    nodeFieldOptions: { description: "The row." },
    edgesFieldOptions: { description: "Rows of the page, in id order." },
    pageInfoFieldOptions: { description: "Where the page stands." },
    firstArgOptions: { description: "Page size, 1 to 500 (default 100)." },
    afterArgOptions: { description: "Cursor: the last id of the previous page." },
    beforeArgOptions: { description: "Not supported (keyset pages go forward)." },
    lastArgOptions: { description: "Not supported (keyset pages go forward)." },
  },
  prisma: {
    // Resolved from the request context: one schema can serve several databases (tests, benches).
    client: (ctx: Context) => ctx.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  scopeAuth: {
    authScopes: (ctx) => grantsOf(ctx.actor),
    unauthorizedError: (_parent, ctx, _info, result) => {
      const scopes = failedScopes(result.failure);
      // A member refused a field open to the operator or to some roles hears about their role.
      if (isMember(ctx.actor) && scopes.some((s) => ROLE_SCOPES.has(s))) return new AppError("role_forbidden");
      if (scopes[0] === "operator") return new AppError("operator_only");
      return new AppError("insufficient_scope");
    },
  },
  validation: {
    validationError: (result) =>
      new AppError("invalid_argument", {
        error: result.issues.map((i) => `${i.path?.map((p) => (typeof p === "object" ? p.key : p)).join(".") ?? ""}: ${i.message}`).join("; "),
      }),
  },
});
