// The long-lived pieces one process shares: database, key cache, logger and configuration.
import type { Logger } from "pino";
import type { Db } from "../prisma/client.ts";
import { KeyCache } from "./auth/key-cache.ts";
import { createGateways, type Gateways } from "./gateways/registry.ts";
import { wallClock, type Clock } from "./shared/clock.ts";

export interface RuntimeConfig {
  adminToken: string;
  publicUrl: string;
}

export interface Runtime {
  db: Db;
  keyCache: KeyCache;
  logger: Logger;
  config: RuntimeConfig;
  /** Wall clock (LIVE tenants, transport times). Sandbox tenants derive their own from it. */
  wallClock: Clock;
  gateways: Gateways;
  /** Fault injection for crash tests: called at named points; throwing there simulates a crash. Unset in production. */
  faults?: (point: FaultPoint) => void;
}

export type FaultPoint = "after-gateway-charge";

export async function createRuntime(db: Db, logger: Logger, config: RuntimeConfig): Promise<Runtime> {
  const keyCache = new KeyCache(db);
  await keyCache.start();
  return { db, keyCache, logger, config, wallClock, gateways: createGateways(db.prisma) };
}
