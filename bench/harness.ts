// Shared set-up of the benchmarks: one database, the real service, loopback servers and a seeded
// bench tenant. Each benchmark makes its own tenant, so a shared PostgreSQL database is fine.
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { openDb, type Db } from "../prisma/client.ts";
import { pgPoolConfig } from "../prisma/connection.ts";
import { buildService, type Service } from "../server/service.ts";
import { createLogger } from "../core/shared/logger.ts";
import { wallClock } from "../core/shared/clock.ts";
import { createTenant } from "../core/tenants/create-tenant.ts";
import { createApiKey } from "../core/tenants/create-api-key.ts";
import { createProduct } from "../core/catalog/create-product.ts";
import { createPlan } from "../core/catalog/create-plan.ts";
import { createOffer } from "../core/catalog/create-offer.ts";
import { newId } from "../core/shared/ids.ts";
import { ulid } from "ulid";

export interface Bench {
  db: Db;
  svc: Service;
  dbLabel: string;
}

/** PostgreSQL when DATABASE_URL is set, else PGlite in memory; migrated; with the real service. */
export async function openBench(): Promise<Bench> {
  const url = process.env.DATABASE_URL ?? "";
  const db = await openDb({ url, pgliteDir: "memory://" });
  const svc = await buildService(db, createLogger("silent"), { adminToken: "adm_bench", publicUrl: "http://localhost" });
  return { db, svc, dbLabel: db.kind === "postgres" ? "PostgreSQL" : "PGlite (in memory)" };
}

export interface Listening {
  server: http.Server;
  url: string;
}

/** Any request listener (an Express app is one) on an ephemeral loopback port. */
export async function listen(handler: http.RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function closeServer({ server }: Listening): Promise<void> {
  server.closeAllConnections(); // keep-alive sockets from the load generator would hold close() open
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface SeededTenant {
  tenantId: string;
  key: string;
  plans: { planId: string; offerId: string }[];
}

/** A sandbox tenant with one READ key and one plan + monthly offer per entitlement map. */
export async function seedTenant(db: Db, name: string, planEntitlements: Record<string, unknown>[]): Promise<SeededTenant> {
  const { prisma } = db;
  const tenant = await createTenant(prisma, wallClock, { name, mode: "SANDBOX" });
  // Lift the 100 reads/s per-key limit before the key exists: the key cache keeps the tenant's limits.
  await prisma.tenant.update({ where: { id: tenant.id }, data: { readRateLimit: 1_000_000 } });
  const product = await createProduct(prisma, { tenantId: tenant.id, name: `${name} product` });
  const plans: SeededTenant["plans"] = [];
  for (const [i, entitlements] of planEntitlements.entries()) {
    const plan = await createPlan(prisma, { tenantId: tenant.id, productId: product.id, name: `Plan ${i + 1}`, entitlements });
    const offer = await createOffer(prisma, {
      tenantId: tenant.id,
      planId: plan.id,
      name: `Plan ${i + 1} monthly`,
      interval: "MONTH",
      priceCents: 4990 * (i + 1),
      currency: "brl",
      gateway: "sandbox",
      collectionMethods: ["CARD_AUTO"],
      trialDays: 0,
    });
    plans.push({ planId: plan.id, offerId: offer.id });
  }
  const { key } = await createApiKey(prisma, { tenantId: tenant.id, scope: "READ" });
  return { tenantId: tenant.id, key, plans };
}

/** Fields every seeded subscription shares (a paid monthly card subscription). */
export function liveSubscriptionFields(now = new Date()) {
  const end = new Date(now.getTime() + 30 * 86_400_000);
  return {
    collectionMethod: "CARD_AUTO" as const,
    currency: "brl",
    currentPeriodStart: now,
    currentPeriodEnd: end,
    nextBillingAt: end,
    anchorDay: now.getUTCDate(),
  };
}

/** Tenant, product, plan and a monthly card offer on the sandbox gateway, through the core use cases. */
export async function seedCatalog(db: Db, mode: "LIVE" | "SANDBOX", name: string) {
  const { prisma } = db;
  const tenant = await createTenant(prisma, wallClock, { name, mode });
  const product = await createProduct(prisma, { tenantId: tenant.id, name: `${name} product` });
  const plan = await createPlan(prisma, { tenantId: tenant.id, productId: product.id, name: "Pro", entitlements: { seats: 5 } });
  const offer = await createOffer(prisma, {
    tenantId: tenant.id,
    planId: plan.id,
    name: "Pro monthly",
    interval: "MONTH",
    priceCents: 4990,
    currency: "brl",
    gateway: "sandbox",
    collectionMethods: ["CARD_AUTO"],
    trialDays: 0,
  });
  return { tenant, plan, offer };
}

const SEED_CHUNK = 5_000;

export interface SeedDueOptions {
  /** LIVE (default) or SANDBOX on the wall clock (clock_at NULL: loopback webhook URLs allowed, due by wall time). */
  mode?: "LIVE" | "SANDBOX";
  name?: string;
  /** Leave the tenant's renewals paused, so the run starts only when the caller resumes them. */
  paused?: boolean;
  /** Where customer external ids start (several tenants in one database stay readable). */
  firstCustomer?: number;
}

/**
 * A tenant on the wall clock with N customers, N approving sandbox cards and N active card
 * subscriptions whose period ended a minute ago. Multi-row INSERT ... SELECT FROM unnest in chunks of
 * 5,000, ids made here (prefixed ULIDs); times are passed as ISO text and stored as UTC.
 */
export async function seedDue(db: Db, n: number, opts: SeedDueOptions = {}): Promise<string> {
  const mode = opts.mode ?? "LIVE";
  const { tenant, plan, offer } = await seedCatalog(db, mode, opts.name ?? "bench billing run");
  // A sandbox tenant's clock starts at "now" and would never reach the seeded due dates; NULL = wall clock.
  if (mode === "SANDBOX" || opts.paused) {
    await db.prisma.tenant.update({ where: { id: tenant.id }, data: { ...(mode === "SANDBOX" ? { clockAt: null } : {}), renewalsPaused: !!opts.paused } });
  }
  const first = opts.firstCustomer ?? 0;
  const now = new Date();
  const due = new Date(now.getTime() - 60_000);
  const start = new Date(now);
  start.setUTCMonth(start.getUTCMonth() - 1);
  const utc = (i: number) => `($${i}::timestamptz AT TIME ZONE 'UTC')`;
  for (let done = 0; done < n; done += SEED_CHUNK) {
    const size = Math.min(SEED_CHUNK, n - done);
    const customers = Array.from({ length: size }, () => newId("customer"));
    const cards = Array.from({ length: size }, () => newId("paymentMethod"));
    const tokens = Array.from({ length: size }, () => `tok_sandbox_approve_${ulid()}`);
    const subscriptions = Array.from({ length: size }, () => newId("subscription"));
    await db.sql.query(
      `INSERT INTO customers (id, tenant_id, external_id, email, name, created_at, updated_at)
       SELECT c.id, $2, 'bench-' || (c.i + $3), 'bench-' || (c.i + $3) || '@example.com', 'Bench ' || (c.i + $3), ${utc(4)}, ${utc(4)}
       FROM unnest($1::text[]) WITH ORDINALITY AS c(id, i)`,
      [customers, tenant.id, first + done, now.toISOString()],
    );
    await db.sql.query(
      `INSERT INTO payment_methods (id, tenant_id, customer_id, gateway_account_id, token, brand, last4, exp_month, exp_year, created_at)
       SELECT p.id, $4, p.customer_id, $5, p.token, 'visa', '4242', 12, 2035, ${utc(6)}
       FROM unnest($1::text[], $2::text[], $3::text[]) AS p(id, customer_id, token)`,
      [cards, customers, tokens, tenant.id, offer.gatewayAccountId, now.toISOString()],
    );
    await db.sql.query(
      `INSERT INTO subscriptions (id, tenant_id, customer_id, offer_id, plan_id, status, collection_method, payment_method_id, currency,
                                  current_period_start, current_period_end, next_billing_at, anchor_day, created_at, updated_at)
       SELECT s.id, $4, s.customer_id, $5, $6, 'ACTIVE'::"SubscriptionStatus", 'CARD_AUTO'::"CollectionMethod", s.card_id, 'brl',
              ${utc(7)}, ${utc(8)}, ${utc(8)}, $9, ${utc(10)}, ${utc(10)}
       FROM unnest($1::text[], $2::text[], $3::text[]) AS s(id, customer_id, card_id)`,
      [subscriptions, customers, cards, tenant.id, offer.id, plan.id, start.toISOString(), due.toISOString(), due.getUTCDate(), now.toISOString()],
    );
  }
  // Fresh statistics, as autovacuum would gather after a bulk load (the claim query plans on them).
  await db.sql.exec("ANALYZE customers, payment_methods, subscriptions");
  return tenant.id;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** True when the module at `metaUrl` is the script node was started with (not imported). */
export function isMain(metaUrl: string): boolean {
  const script = process.argv[1];
  return !!script && metaUrl === pathToFileURL(path.resolve(script)).href;
}

export type DbKind = "pg" | "pglite";

/** The PostgreSQL server benchmarks use: BENCH_PG_URL, else DATABASE_URL, else the local one. */
export const PG_BASE = process.env.BENCH_PG_URL || process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432";

let scratchSeq = 0;

/**
 * A migrated database for one case: a fresh PostgreSQL database `<prefix>_<pid>_<n>` (dropped
 * afterwards) or PGlite in memory.
 */
export async function withScratchDb<T>(prefix: string, kind: DbKind, fn: (db: Db) => Promise<T>): Promise<T> {
  if (kind === "pglite") {
    const db = await openDb({ url: "", pgliteDir: "memory://" });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }
  const name = `${prefix}_${process.pid}_${scratchSeq++}`;
  const admin = new pg.Client(pgPoolConfig(PG_BASE));
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(PG_BASE);
    url.pathname = `/${name}`;
    const db = await openDb({ url: url.toString() });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  } finally {
    // Prisma's $disconnect can return before its pool's sockets are closed; FORCE-dropping under a
    // closing idle client makes it emit an unhandled error. Wait for the sessions to go first.
    for (let i = 0; i < 50; i++) {
      const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((err) => console.error(`could not drop ${name}: ${err}`));
    await admin.end();
  }
}
