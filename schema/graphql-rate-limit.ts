// /graphql over HTTP gets /v1's per-key budgets (service-contract §5: 100 reads/s and 20 writes/s by
// default, the tenant's own limits when set, burst 2x) and a cap on failed authentications per client
// address. A query is one read; a mutation costs one write per root field, so 12 aliased
// `refundPayment` are 12 writes, counted and refused whole (429, nothing run) before any resolver.
// Counters live in the same stores as /v1's (memory, or Redis with REDIS_URL, shared by instances),
// under their own prefixes: with GRAPHQL_URL the facade's forwarded calls are not counted twice.
// The operator token has no key and no per-key budget (operator tools and the test suite drive
// everything through it); it is still bound by the document limits and the failed-auth cap.
import { MemoryStore, type Options, type Store } from "express-rate-limit";
import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import { AppError } from "../core/shared/errors.ts";

export const DEFAULT_READ_PER_SECOND = 100;
export const DEFAULT_WRITE_PER_SECOND = 20;
export const WINDOW_MS = 2_000;

/** Failed authentications one client address may make per minute before every attempt gets 429. */
export const AUTH_FAILURES_PER_MINUTE = 30;
const AUTH_WINDOW_MS = 60_000;

export type StoreFor = (prefix: string) => Store;

function store(storeFor: StoreFor | undefined, prefix: string, windowMs: number): Store {
  const s = storeFor ? storeFor(prefix) : new MemoryStore();
  void s.init?.({ windowMs } as Options);
  return s;
}

/** Seconds until the window ends (at least 1: a client told 0 would retry into the same window). */
const secondsUntil = (resetTime: Date | undefined, windowMs: number, now = Date.now()) => Math.max(1, Math.ceil(((resetTime?.getTime() ?? now + windowMs) - now) / 1000));

/** The RateLimit-* headers of an answer (IETF draft 6, as express-rate-limit wrote them on /v1). */
export function rateLimitHeaders(limit: number, used: number, resetTime: Date | undefined, windowMs = WINDOW_MS): Record<string, string> {
  return {
    "RateLimit-Policy": `${limit};w=${Math.ceil(windowMs / 1000)}`,
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(Math.max(limit - used, 0)),
    "RateLimit-Reset": String(secondsUntil(resetTime, windowMs)),
  };
}

/** A 429 with Retry-After and RateLimit-*, kept as it is by schema/errors.ts. */
export function rateLimitedError(limit: number, resetTime: Date | undefined, windowMs = WINDOW_MS): GraphQLError {
  const e = new AppError("rate_limited");
  return new GraphQLError(e.message, {
    extensions: {
      code: e.key,
      status: e.status,
      body: e.body,
      http: {
        status: e.status,
        spec: false,
        headers: { "Retry-After": String(secondsUntil(resetTime, windowMs)), ...rateLimitHeaders(limit, limit, resetTime, windowMs) },
      },
    },
  });
}

/** Root fields of the operation that will run (response keys; `__typename` is free). */
export function rootFieldCount(document: DocumentNode, operationName: string | null | undefined): { operation: OperationDefinitionNode["operation"]; fields: number } | null {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  if (!op) return null; // graphql-js refuses it before anything runs
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const walk: ResponseKeyWalk = { fragments, keys: new Set(), seen: new Set() };
  collectResponseKeys(walk, op.selectionSet);
  return { operation: op.operation, fields: walk.keys.size };
}

type ResponseKeyWalk = { fragments: Map<string, FragmentDefinitionNode>; keys: Set<string>; seen: Set<string> };

// A function of its own rather than a closure made per call: under tsx (keepNames) each named closure
// is renamed with Object.defineProperty, and this runs on every tenant request.
function collectResponseKeys(walk: ResponseKeyWalk, set: SelectionSetNode): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value !== "__typename") walk.keys.add(sel.alias?.value ?? sel.name.value);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) collectResponseKeys(walk, sel.selectionSet);
    else if (!walk.seen.has(sel.name.value)) {
      walk.seen.add(sel.name.value);
      const f = walk.fragments.get(sel.name.value);
      if (f) collectResponseKeys(walk, f.selectionSet);
    }
  }
}

export interface KeyBudget {
  keyId: string;
  readPerSecond: number | null;
  writePerSecond: number | null;
}

export interface Charge {
  /** A 429 when over budget (nothing may run). */
  refusal: GraphQLError | null;
  /** RateLimit-* for the answer, whatever it is. */
  headers: Record<string, string>;
}

export interface GraphQLRateLimits {
  /** Counts `cost` reads or writes against the key. */
  charge(key: KeyBudget, kind: "read" | "write", cost: number): Promise<Charge>;
  /** A 429 error when this client address is locked out by failed authentications. */
  authLocked(address: string): Promise<GraphQLError | null>;
  authFailed(address: string): Promise<void>;
}

export function graphqlRateLimits(storeFor?: StoreFor): GraphQLRateLimits {
  const reads = store(storeFor, "rl:gql:read:", WINDOW_MS);
  const writes = store(storeFor, "rl:gql:write:", WINDOW_MS);
  const failures = store(storeFor, "rl:gql:authfail:", AUTH_WINDOW_MS);
  return {
    async charge(key, kind, cost) {
      const perSecond = (kind === "read" ? key.readPerSecond : key.writePerSecond) ?? (kind === "read" ? DEFAULT_READ_PER_SECOND : DEFAULT_WRITE_PER_SECOND);
      const limit = perSecond * (WINDOW_MS / 1000);
      const s = kind === "read" ? reads : writes;
      // Every unit is counted, refused or not, as express-rate-limit counts /v1's refused requests.
      const hits = await Promise.all(Array.from({ length: Math.max(1, cost) }, () => s.increment(key.keyId)));
      const last = hits.reduce((a, b) => (b.totalHits > a.totalHits ? b : a));
      return { refusal: last.totalHits > limit ? rateLimitedError(limit, last.resetTime) : null, headers: rateLimitHeaders(limit, last.totalHits, last.resetTime) };
    },
    async authLocked(address) {
      const info = await failures.get?.(address);
      return info && info.totalHits >= AUTH_FAILURES_PER_MINUTE ? rateLimitedError(AUTH_FAILURES_PER_MINUTE, info.resetTime, AUTH_WINDOW_MS) : null;
    },
    async authFailed(address) {
      await failures.increment(address);
    },
  };
}
