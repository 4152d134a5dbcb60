// One entry: every GraphQL request, the /v1 facade's included, is admitted here and only
// here. Before the document is parsed: the failed-authentication cap, the API key (tenant, scope,
// account mode) or operator token, and whether the request comes from the trusted facade. Before
// anything runs: the key's rate budget, then Idempotency-Key (graphql-idempotency.ts). On the way out:
// RateLimit-* on every answer to a key, and the answer kept for replays before it is sent.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { authenticate, type AuthResult } from "../core/auth/authenticate.ts";
import { AppError, isAppError } from "../core/shared/errors.ts";
import { constantTimeEqual } from "../core/shared/secrets.ts";
import type { Runtime } from "../core/runtime.ts";
import type { Context } from "./context.ts";
import { toGraphQLError } from "./errors.ts";
import { panelClientOf, type PanelClient } from "../contract/panel-request.ts";
import { FACADE_CLIENT_ADDRESS_HEADER, FACADE_SECRET_HEADER, facadeRequestOf, type FacadeRequest } from "../contract/facade-request.ts";
import { idempotencyOnExecute, idempotencyOnResponse, type IdempotencyState } from "./graphql-idempotency.ts";
import { rootFieldCount, type GraphQLRateLimits } from "./graphql-rate-limit.ts";

export interface GateState extends IdempotencyState {
  auth: AuthResult;
  requestId: string;
  /** The client's address: the socket's, or the one the trusted facade forwarded. */
  address: string;
  /** Set when the trusted facade sent the request on behalf of a /v1 call. */
  facade: FacadeRequest | null;
  /** Set when the trusted panel sent the request on behalf of a browser. */
  panel: PanelClient | null;
  rateHeaders?: Record<string, string>;
}

export interface EntryGateOptions {
  runtime: Runtime;
  limits: GraphQLRateLimits;
  /** FACADE_SECRET: over HTTP, the facade's headers are trusted only with it. */
  facadeSecret?: string;
}

/** An AppError as a GraphQL error the facade relays as is, with the HTTP status Yoga should use. */
export function gateError(e: AppError): GraphQLError {
  return new GraphQLError(e.message, { extensions: { code: e.key, status: e.status, body: e.body, http: { status: e.status } } });
}

const states = new WeakMap<Request, GateState>();

/** Requests the facade made inside this process (in-process-entry.ts): no HTTP caller can be one. */
const inProcessRequests = new WeakSet<Request>();

export function markInProcess(request: Request): void {
  inProcessRequests.add(request);
}

export function isInProcess(request: Request | undefined): boolean {
  return !!request && inProcessRequests.has(request);
}

export function gateStateOf(request: Request): GateState | undefined {
  return states.get(request);
}

function trustedFacade(request: Request, opts: EntryGateOptions): boolean {
  if (isInProcess(request)) return true;
  const presented = request.headers.get(FACADE_SECRET_HEADER);
  // Without FACADE_SECRET no HTTP caller is the facade: X-Facade-* headers are ignored, never believed.
  return !!opts.facadeSecret && presented !== null && constantTimeEqual(presented, opts.facadeSecret);
}

function socketAddress(serverContext: unknown): string {
  const req = (serverContext as { req?: { ip?: string; socket?: { remoteAddress?: string } } } | undefined)?.req;
  return req?.ip ?? req?.socket?.remoteAddress ?? "";
}

export function entryGate(opts: EntryGateOptions): Plugin<Context> {
  const { runtime, limits } = opts;
  return {
    async onParams({ request, params, context }) {
      const trusted = trustedFacade(request, opts);
      const facade = trusted ? facadeRequestOf(params.extensions) : null;
      const panel = trusted ? panelClientOf(params.extensions) : null;
      const forwarded = trusted ? request.headers.get(FACADE_CLIENT_ADDRESS_HEADER) : null;
      const address = panel?.address ?? forwarded ?? socketAddress(context);
      // /v1 never had the failed-authentication cap (its answers stay as the contract has them); direct
      // GraphQL callers are capped per address, the address a spoofed header cannot change. The panel
      // limits its sign-in form itself, and an expired session cookie is no guess.
      const capped = !facade && !panel && !!address;
      if (capped) {
        const locked = await limits.authLocked(address);
        if (locked) throw locked;
      }
      const header = request.headers.get("authorization");
      let auth: AuthResult;
      try {
        // The panel before sign-in has no credential: it may reach only the sign-in operations (scope `panel`).
        auth = panel && !header ? { kind: "panel" } : await authenticate(runtime, header);
        // A panel session token is a credential only when the panel presents it.
        if (auth.kind === "user" && !panel) throw new AppError("unauthorized");
      } catch (e) {
        if (!isAppError(e)) throw e;
        // Only a presented credential counts: a missing one guesses nothing.
        if (capped && header && e.status === 401) await limits.authFailed(address);
        throw gateError(e);
      }
      if (facade && auth.kind !== "tenant") throw gateError(new AppError("unauthorized", { error: "use a tenant API key (bk_…) on /v1" }));
      states.set(request, {
        auth,
        requestId: request.headers.get("x-request-id") ?? "",
        address,
        facade,
        panel,
        idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
        params: { query: params.query ?? null, operationName: params.operationName ?? null, variables: params.variables ?? null, extensions: params.extensions ?? null },
      });
    },

    async onExecute({ args, setResultAndStopExecution }) {
      const state = states.get(args.contextValue.request);
      if (!state) return;
      if (state.auth.kind === "tenant") {
        // A query is one read; a mutation one write per root field (aliases included), refused whole.
        const root = rootFieldCount(args.document, args.operationName);
        const budget = { keyId: state.auth.keyId, readPerSecond: state.auth.tenant.readRateLimit, writePerSecond: state.auth.tenant.writeRateLimit };
        const charge = root?.operation === "mutation" ? await limits.charge(budget, "write", root.fields) : await limits.charge(budget, "read", 1);
        state.rateHeaders = charge.headers;
        if (charge.refusal) return setResultAndStopExecution({ data: null, errors: [charge.refusal] });
      }
      const refusal = await idempotencyOnExecute(runtime, state, args);
      if (refusal === "replay") return setResultAndStopExecution({ data: null });
      if (refusal) return setResultAndStopExecution({ data: null, errors: [isAppError(refusal) ? toGraphQLError(refusal) : refusal] });
    },

    async onResponse({ request, response, setResponse, fetchAPI }) {
      const state = states.get(request);
      if (!state) return;
      for (const [name, value] of Object.entries(state.rateHeaders ?? {})) response.headers.set(name, value);
      const replaced = await idempotencyOnResponse(runtime, state, response, fetchAPI);
      if (replaced) setResponse(replaced);
    },
  };
}
