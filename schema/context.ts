// What every resolver sees: the database, the caller (operator or tenant key) and its clock.
import type { Db } from "../prisma/client.ts";
import type { Clock } from "../core/shared/clock.ts";
import type { Runtime } from "../core/runtime.ts";
import type { TenantUserRole } from "../generated/prisma/client.ts";
import type { PanelClient } from "../contract/panel-request.ts";

/** A signed-in panel member: acts on its own tenant with scopes from its role. */
export interface PanelUser {
  id: string;
  sessionId: string;
  email: string;
  role: TenantUserRole;
  twoFactorOn: boolean;
  /** The tenant requires two-factor and this member has not turned it on: only their own security pages are open. */
  owesTwoFactor: boolean;
  /** The browser behind the call. */
  client: PanelClient;
}

export type Actor =
  | { kind: "operator" }
  /** The panel before sign-in: may only sign in and accept invitations. */
  | { kind: "panel"; client: PanelClient }
  | {
      kind: "tenant";
      tenantId: string;
      /** The API key's id; empty for a panel member (see user). */
      keyId: string;
      /** Set when a panel member is calling rather than an API key. */
      user?: PanelUser;
      scope: "READ" | "WRITE";
      readOnly: boolean;
      mode: "LIVE" | "SANDBOX";
      clockAt: Date | null;
    };

export interface Context {
  runtime: Runtime;
  db: Db;
  actor: Actor;
  /** The caller tenant's clock (wall clock for the operator). */
  clock: Clock;
  requestId: string;
  /** The client's address as the entry gate believed it (the socket's, the panel's or the trusted facade's). */
  address: string;
}
