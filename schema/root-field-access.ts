// Who may run an operation's root fields, decided before anything runs: the fields' own auth scopes
// (Pothos scope-auth, as declared on each field) and the read-only account rule (scopes.ts). Execution
// checks the same rules field by field; this answers them up front for the requests that must be
// refused whole before a stored answer is replayed or a /v1 refusal is recorded (graphql-idempotency.ts),
// so an Idempotency-Key never hands an answer to a key that could not have made the request.
import { Kind, type DocumentNode, type GraphQLField, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import { AppError } from "../core/shared/errors.ts";
import type { Actor } from "./context.ts";
import { ALLOWED_WHEN_READ_ONLY, grantsOf, isMember, MEMBER_SELF_SERVICE, ROLE_SCOPES } from "./scopes.ts";
import type { Scopes } from "./builder.ts";

type ScopeMap = Partial<Record<keyof Scopes | "$any" | "$all", unknown>>;

/** The operation that will run (graphql-js refuses an ambiguous one before execution). */
export function selectedOperation(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
}

/** Root field names of the operation, through fragments (`__typename` needs no access). */
export function rootFieldNames(document: DocumentNode, op: OperationDefinitionNode): string[] {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const names: string[] = [];
  const seen = new Set<string>();
  const collect = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (!sel.name.value.startsWith("__")) names.push(sel.name.value);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const f = fragments.get(sel.name.value);
        if (f) collect(f.selectionSet);
      }
    }
  };
  collect(op.selectionSet);
  return names;
}

const grants = (actor: Actor): Scopes => grantsOf(actor);

/** The first scope of a map that fails, as scope-auth reports it; null when the map passes. */
function failedScope(map: ScopeMap, have: Scopes, all = false): string | null {
  let first: string | null = null;
  for (const [name, wanted] of Object.entries(map)) {
    let failed: string | null;
    if (name === "$any") failed = failedScope(wanted as ScopeMap, have, false);
    else if (name === "$all") failed = failedScope(wanted as ScopeMap, have, true);
    else failed = wanted === true && !have[name as keyof Scopes] ? name : null;
    if (!failed && !all) return null; // any-of: one passing scope is enough
    if (failed && all) return failed;
    first ??= failed;
  }
  return all ? null : first;
}

/** Every scope a map names, nested ones included. */
function scopeNames(map: ScopeMap): string[] {
  return Object.entries(map).flatMap(([name, wanted]) => (name === "$any" || name === "$all" ? scopeNames(wanted as ScopeMap) : [name]));
}

/** The declared scopes of a field: a plain scope map on every root field (a test keeps it so). */
export function declaredScopes(field: GraphQLField<unknown, unknown>): ScopeMap | null | "unknown" {
  const scopes = (field.extensions as { pothosOptions?: { authScopes?: unknown } } | undefined)?.pothosOptions?.authScopes;
  if (scopes === undefined) return null;
  return scopes && typeof scopes === "object" ? (scopes as ScopeMap) : "unknown";
}

/** The refusal scope-auth and the read-only rule would give the first root field that fails, if any. */
export function rootFieldRefusal(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, actor: Actor): AppError | null {
  const op = selectedOperation(document, operationName);
  if (!op) return null;
  const root = op.operation === "mutation" ? schema.getMutationType() : op.operation === "query" ? schema.getQueryType() : schema.getSubscriptionType();
  const fields = root?.getFields() ?? {};
  const have = grants(actor);
  for (const name of rootFieldNames(document, op)) {
    const field = fields[name];
    if (!field) continue; // validation already refused unknown fields
    const scopes = declaredScopes(field);
    // A scope this check cannot read is refused rather than guessed (a test keeps every root field readable).
    if (scopes === "unknown") return new AppError("insufficient_scope");
    const failed = scopes ? failedScope(scopes, have) : null;
    // As builder.ts: a member refused a field that some roles may use hears role_forbidden.
    if (failed && isMember(actor) && scopeNames(scopes!).some((s) => ROLE_SCOPES.has(s) && !have[s as keyof Scopes])) return new AppError("role_forbidden");
    if (failed === "operator") return new AppError("operator_only");
    if (failed) return new AppError("insufficient_scope");
    if (op.operation === "mutation" && actor.kind === "tenant" && actor.readOnly && !ALLOWED_WHEN_READ_ONLY.has(name) && !MEMBER_SELF_SERVICE.has(name)) return new AppError("account_locked");
  }
  return null;
}
