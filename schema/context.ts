// What every resolver sees: the database, the caller (operator or tenant key) and its clock.
import type { Db } from "../prisma/client.ts";
import type { Clock } from "../core/shared/clock.ts";
import type { Runtime } from "../core/runtime.ts";

export type Actor =
  | { kind: "operator" }
  | {
      kind: "tenant";
      tenantId: string;
      keyId: string;
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
}
