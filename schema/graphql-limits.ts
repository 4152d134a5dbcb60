// What one GraphQL request may ask for, checked before anything runs: the document's shape (depth,
// aliases, cost, tokens, directives: graphql-armor; repeated object types: a cycle rule) and the input
// it carries (string values and variables: no U+0000, no unpaired surrogate, at most 40 levels deep).
// Every refusal is a 400 with the contract's body, never a 500 from PostgreSQL or a blown stack.
import { ApolloArmor, EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import {
  GraphQLError,
  getNamedType,
  isObjectType,
  Kind,
  Lexer,
  Source,
  TokenKind,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { AppError } from "../core/shared/errors.ts";
import { loadPersistedOperations } from "./persisted-operations.ts";
import { validationStatus } from "./validation-status.ts";

/**
 * Measured on every operation the project sends (contract/operations/*.graphql, the tests, the
 * benches): depth 7 at most (the facade's typed GET /v1/events selection: events > edges > node >
 * data > lastPayment > card > brand), 2 aliases, cost 6,438 at most (graphql-armor multiplies a
 * list's cost by a literal `first: 500`; list-events costs ~1,400), 218 tokens (list-events), no directives. The limits leave room for hand-written
 * GraphiQL queries (500 subscriptions with their customer and plan cost ~20,000) and stop the attack
 * documents: the 13-level customer/subscriptions cycle (depth 13) and 500 aliases; the cost limit
 * stops a handful of aliased 500-row pages, whether their page size is a literal or a variable
 * (variablePageSizes below).
 * GraphiQL's introspection query is exempt from depth and cost (graphql-armor skips `__schema`).
 */
export const GRAPHQL_LIMITS = {
  maxDepth: 8,
  maxAliases: 15,
  maxCost: 50_000,
  maxTokens: 2_000,
  maxDirectives: 20,
  /** How often one object type may appear on a selection path: once back through a cycle, no more. */
  maxTypeRepeats: 2,
  /** Nesting of input values: variables and literal lists/objects in the document. */
  maxInputDepth: 40,
};

/** A 400 that schema/errors.ts keeps as it is, with an HTTP status Yoga honours even for `Accept: application/json`. */
export function requestError(message: string, key: "invalid_parameter" | "invalid_argument" = "invalid_parameter"): GraphQLError {
  const e = new AppError(key, { error: message });
  return new GraphQLError(e.message, {
    extensions: { code: e.key, status: 400, body: e.body, http: { status: 400, spec: false } },
  });
}

/** graphql-armor's own errors say "Syntax Error: …" and leave the status to Yoga (200 for JSON clients). */
function armor(): Plugin {
  const onReject = [(ctx: ValidationContext | null, err: GraphQLError) => ctx?.reportError(requestError(err.message.replace(/^Syntax Error: /, "")))];
  const common = { onReject, propagateOnRejection: false, exposeLimits: true };
  return EnvelopArmorPlugin({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true, ...common },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases, ...common },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, ignoreIntrospection: true, ...common },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives, ...common },
    // Counted in onParams instead (tokenCount below): a parse-time refusal gets Yoga's legacy 200.
    maxTokens: { enabled: false },
    // The schema is introspectable anyway: "did you mean" helps the people using GraphiQL.
    blockFieldSuggestion: { enabled: false },
  }) as Plugin;
}

/** Documents are parsed once and cached, so the answer is kept per document, not walked per request. */
const variablePageSize = new WeakMap<DocumentNode, boolean>();

/** A page size (`first`/`last`) given by a variable, anywhere in the document (fragments included). */
function pageSizeFromVariable(document: DocumentNode): boolean {
  const known = variablePageSize.get(document);
  if (known !== undefined) return known;
  let found = false;
  visit(document, {
    Argument(node) {
      if ((node.name.value === "first" || node.name.value === "last") && node.value.kind === Kind.VARIABLE) found = true;
    },
  });
  variablePageSize.set(document, found);
  return found;
}

/**
 * The document with each variable page size written in as the literal it stands for (the request's
 * value, else the variable's literal default): graphql-armor's cost rule reads literals only.
 */
function withPageSizesInlined(document: DocumentNode, variables: Record<string, unknown>): DocumentNode {
  const defaults = new Map<string, string>();
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of d.variableDefinitions ?? []) if (v.defaultValue?.kind === Kind.INT) defaults.set(v.variable.name.value, v.defaultValue.value);
  }
  return visit(document, {
    Argument(node) {
      if ((node.name.value !== "first" && node.name.value !== "last") || node.value.kind !== Kind.VARIABLE) return undefined;
      const given = variables[node.value.name.value];
      const value = Number.isSafeInteger(given) ? String(given) : defaults.get(node.value.name.value);
      return value === undefined ? undefined : { ...node, value: { kind: Kind.INT, value } };
    },
  });
}

/**
 * graphql-armor costs a list by a literal `first: 500` only; a page size in a variable counted as 1,
 * so fifteen aliased `first: $n` pages passed. At execution (the variables' values are known there,
 * and a validation result is cached per document, not per request) the same rule costs the document
 * again with those values written in. The facade's persisted documents are exempt: fixed, reviewed
 * shapes whose one page size the keyset rule bounds at 500 (their richest, list-events, costs ~1,400 a
 * row by this formula, the reason a page size in a variable is costed only outside them).
 */
function variablePageSizes(): Plugin {
  const trusted = new Set([...loadPersistedOperations().values()].map((op) => op.document));
  const rejected: GraphQLError[] = [];
  const [costRule] = new ApolloArmor({
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, ignoreIntrospection: true, exposeLimits: true, propagateOnRejection: false, onReject: [(_ctx, err) => void rejected.push(err)] },
    maxAliases: { enabled: false },
    maxDepth: { enabled: false },
    maxDirectives: { enabled: false },
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: false },
  }).protect().validationRules as ValidationRule[];
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const query = (args.contextValue as { params?: { query?: string } }).params?.query;
      if ((query !== undefined && trusted.has(query)) || !pageSizeFromVariable(args.document)) return;
      rejected.length = 0;
      validate(args.schema as GraphQLSchema, withPageSizesInlined(args.document, variables), [costRule!]);
      const err = rejected[0];
      if (err) setResultAndStopExecution({ errors: [requestError(err.message.replace(/^Syntax Error: /, ""))] });
    },
  };
}

/**
 * The one cycle in the schema (Subscription.customer -> Customer.subscriptions) multiplies the answer
 * by a customer's subscription count at every turn. Depth alone allows a few turns; this rule allows
 * the way back once (a subscription's customer's other subscriptions) and refuses a type seen a third
 * time on one path.
 */
const typeRepeatsRule: ValidationRule = (context) => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const schema = context.getSchema();
  // Fragments are expanded at every spread: a budget keeps a document of nested spreads from making
  // this walk exponential (the other limits already refuse anything legitimate long before).
  let budget = 20_000;

  function walk(set: SelectionSetNode, typeName: string, seen: Map<string, number>, fragmentPath: Set<string>): string | null {
    for (const sel of set.selections) {
      if (--budget < 0) return "the expanded document";
      if (sel.kind === Kind.FIELD) {
        if (!sel.selectionSet) continue;
        const parent = schema.getType(typeName);
        const field = isObjectType(parent) ? parent.getFields()[sel.name.value] : undefined;
        if (!field) continue; // unknown fields are the standard rules' business
        const child = getNamedType(field.type).name;
        const n = (seen.get(child) ?? 0) + 1;
        if (n > GRAPHQL_LIMITS.maxTypeRepeats) return child;
        const found = walk(sel.selectionSet, child, new Map(seen).set(child, n), fragmentPath);
        if (found) return found;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const found = walk(sel.selectionSet, sel.typeCondition?.name.value ?? typeName, seen, fragmentPath);
        if (found) return found;
      } else {
        const frag = fragments.get(sel.name.value);
        if (!frag || fragmentPath.has(frag.name.value)) continue; // cycles between fragments: NoFragmentCycles
        const found = walk(frag.selectionSet, frag.typeCondition.name.value, seen, new Set(fragmentPath).add(frag.name.value));
        if (found) return found;
      }
    }
    return null;
  }

  return {
    OperationDefinition(op) {
      const root = op.operation === "query" ? schema.getQueryType() : op.operation === "mutation" ? schema.getMutationType() : schema.getSubscriptionType();
      if (!root) return;
      const repeated = walk(op.selectionSet, root.name, new Map([[root.name, 1]]), new Set());
      if (repeated === "the expanded document") context.reportError(requestError("the document is too large once its fragments are expanded"));
      else if (repeated) context.reportError(requestError(`the selection passes through ${repeated} more than ${GRAPHQL_LIMITS.maxTypeRepeats} times`));
    },
  };
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** U+0000 (PostgreSQL text cannot hold it) or a UTF-16 half without its pair (not valid UTF-8). */
function badString(s: string): string | null {
  if (s.includes("\u0000")) return "parameters must not contain NUL characters";
  if (LONE_SURROGATE.test(s)) return "parameters must be valid Unicode (no unpaired surrogate)";
  return null;
}

/** String values (however escaped: "\u0000", "\u{0}") and nesting of literal lists and objects. */
const inputValuesRule: ValidationRule = (context) => {
  let depth = 0;
  let reported = false;
  const nest = {
    enter() {
      if (++depth > GRAPHQL_LIMITS.maxInputDepth && !reported) {
        reported = true;
        context.reportError(requestError(`input values must not be nested more than ${GRAPHQL_LIMITS.maxInputDepth} levels deep`));
      }
    },
    leave() {
      depth--;
    },
  };
  return {
    StringValue(node) {
      const why = badString(node.value);
      if (why) context.reportError(requestError(why));
    },
    ListValue: nest,
    ObjectValue: nest,
  };
};

/**
 * Tokens of the document, counted before it is parsed (and before the parser cache), so a huge
 * document is refused with a 400 rather than parsed. A document shorter than the limit in characters
 * cannot hold more tokens than that: the facade's documents are never lexed twice.
 */
function tooManyTokens(query: string): boolean {
  if (query.length <= GRAPHQL_LIMITS.maxTokens) return false;
  const lexer = new Lexer(new Source(query));
  try {
    for (let n = 0; lexer.advance().kind !== TokenKind.EOF; ) if (++n > GRAPHQL_LIMITS.maxTokens) return true;
  } catch {
    // A lexical error: the parser reports it.
  }
  return false;
}

/** Variables, walked without recursion: strings, object keys and nesting depth. */
export function checkVariables(variables: unknown): string | null {
  const stack: [unknown, number][] = [[variables, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v === "string") {
      const why = badString(v);
      if (why) return why;
    } else if (v && typeof v === "object") {
      if (d >= GRAPHQL_LIMITS.maxInputDepth + 1) return `variables must not be nested more than ${GRAPHQL_LIMITS.maxInputDepth} levels deep`;
      for (const [k, x] of Object.entries(v)) {
        const why = badString(k);
        if (why) return why;
        stack.push([x, d + 1]);
      }
    }
  }
  return null;
}

/** The document's limits and input checks, for both the HTTP instance and the facade's in-process one. */
export function documentLimits(): Plugin[] {
  return [
    armor(),
    variablePageSizes(),
    validationStatus(),
    {
      onValidate({ addValidationRule }) {
        addValidationRule(typeRepeatsRule);
        addValidationRule(inputValuesRule);
      },
      onParams({ params }) {
        if (params.query && tooManyTokens(params.query)) throw requestError(`the document has more than ${GRAPHQL_LIMITS.maxTokens} tokens`);
        // The operation's own variables object sits at depth 0; its values start at 1.
        const why = params.variables ? checkVariables(params.variables) : null;
        if (why) throw requestError(why);
      },
    },
  ];
}
