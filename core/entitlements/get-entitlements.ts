// GET /v1/entitlements: the hot path. From the instance's cache (entitlements-cache.ts: dropped by the
// notifications that the changing transaction itself queues, so plan edits still show at once), else
// one SQL round trip: customer, live subscriptions and the current plan catalogue, through `db.read`,
// past Prisma's per-query compiler.
import type { Clock } from "../shared/clock.ts";
import type { Db } from "../../prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { mergeEntitlements, type Entitlements } from "./merge-entitlements.ts";
import { LIVING } from "../shared/status-sets.ts";
import type { EntitlementsCache } from "./entitlements-cache.ts";

export interface GetEntitlementsInput {
  tenantId: string;
  externalId?: string | null;
  email?: string | null;
}

interface Row {
  customer_id: string;
  id: string | null;
  status: string | null;
  plan_id: string | null;
  interval: string | null;
  current_period_end: Date | null;
  entitlements: Entitlements | null;
}

/**
 * One statement per customer key, each on its unique index (a key chosen by a parameter inside one
 * statement would leave a prepared statement's generic plan no index to use). `db.read` prepares them:
 * planning this join, not running it, was most of PostgreSQL's work per call.
 */
const entitlementsOf = (key: "external_id" | "email") => `
  SELECT c.id AS customer_id, s.id, lower(s.status::text) AS status, s.plan_id,
         lower(o.interval::text) AS interval, s.current_period_end, p.entitlements
    FROM customers c
    LEFT JOIN subscriptions s ON s.tenant_id = c.tenant_id AND s.customer_id = c.id AND s.status <> 'CANCELED'
    LEFT JOIN offers o ON o.tenant_id = s.tenant_id AND o.id = s.offer_id
    LEFT JOIN plans p ON p.tenant_id = s.tenant_id AND p.id = s.plan_id
   WHERE c.tenant_id = $1 AND c.${key} = $2
   ORDER BY s.id`;
const BY_EXTERNAL_ID = entitlementsOf("external_id");
const BY_EMAIL = entitlementsOf("email");

/** Statuses whose plan capabilities count; suspended is listed but adds nothing. */
const GRANTING = new Set<string>(LIVING.map((s) => s.toLowerCase()));

export interface EntitlementsAnswer {
  customerId: string | null;
  subscriptions: { id: string; status: string; planId: string; interval: string; currentPeriodEnd: Date | null; entitlements: Entitlements }[];
  mergedEntitlements: Entitlements;
}

/** `cache`: the instance's, with the wall clock that times its own expiry (never a rule's time). */
export async function getEntitlements(db: Pick<Db, "read">, input: GetEntitlementsInput, cache?: { entries: EntitlementsCache<EntitlementsAnswer>; wallClock: Clock }): Promise<EntitlementsAnswer> {
  const byExternalId = input.externalId != null && input.externalId !== "";
  if (!byExternalId && (input.email == null || input.email === "")) throw new AppError("missing_customer_key");
  if (!cache) return readEntitlements(db, input.tenantId, byExternalId, byExternalId ? input.externalId! : input.email!);
  const key = byExternalId ? `x:${input.externalId}` : `e:${input.email}`;
  const nowMs = cache.wallClock.now().getTime();
  const hit = cache.entries.get(input.tenantId, key, nowMs);
  if (hit) return hit;
  const generation = cache.entries.generation(input.tenantId);
  const answer = await readEntitlements(db, input.tenantId, byExternalId, byExternalId ? input.externalId! : input.email!);
  cache.entries.set(input.tenantId, key, answer.customerId, answer, nowMs, generation);
  return answer;
}

async function readEntitlements(db: Pick<Db, "read">, tenantId: string, byExternalId: boolean, value: string): Promise<EntitlementsAnswer> {
  const rows = await db.read<Row>(byExternalId ? BY_EXTERNAL_ID : BY_EMAIL, [tenantId, value]);
  if (rows.length === 0) return { customerId: null, subscriptions: [], mergedEntitlements: {} };
  const subscriptions = rows
    .filter((r) => r.id)
    .map((r) => ({
      id: r.id!,
      status: r.status!,
      planId: r.plan_id!,
      interval: r.interval ?? "month",
      currentPeriodEnd: r.current_period_end ? new Date(r.current_period_end) : null,
      entitlements: r.entitlements ?? {},
    }));
  return {
    customerId: rows[0]!.customer_id,
    subscriptions,
    mergedEntitlements: mergeEntitlements(subscriptions.filter((s) => GRANTING.has(s.status)).map((s) => s.entitlements)),
  };
}
