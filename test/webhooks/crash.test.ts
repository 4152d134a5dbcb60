// kill -9 while a delivery is on the wire: nothing is lost. The killed process held the delivery's
// lease; when it runs out, the restarted process (or any other instance on the same database)
// sends it again. Duplicates are only what at-least-once allows: the attempt cut by the crash.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { CPF } from "../helpers/billing.ts";
import { Receiver } from "../helpers/webhook-receiver.ts";

const ADMIN = "adm_crash_test_token_0123456789abcdef";

interface Instance {
  child: ChildProcess;
  base: string;
  gql(query: string, variables?: Record<string, unknown>, key?: string): Promise<any>;
}

/**
 * The instances get a database of their own: PGlite in a data directory, or a scratch PostgreSQL
 * database on the test server (the suite's own service would otherwise deliver for them).
 */
async function scratchDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (!process.env.DATABASE_URL) return { url: undefined, drop: async () => undefined };
  const admin = new URL(process.env.DATABASE_URL);
  const name = `billing_crash_${process.pid}_${Date.now()}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function startInstance(dataDir: string, port: number, databaseUrl: string | undefined): Promise<Instance> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), ADMIN_TOKEN: ADMIN, LOG_LEVEL: "warn", WEBHOOK_LEASE_MS: "1500" };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited:\n${out}`);
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false);
    if (ok && /billing service/.test(out)) break;
    if (Date.now() > end) {
      child.kill("SIGKILL");
      throw new Error(`instance not up in 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const gql = async (query: string, variables: Record<string, unknown> = {}, key = ADMIN) => {
    const res = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  return { child, base, gql };
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

describe("crash while sending", () => {
  it("a delivery cut by kill -9 is sent again after restart; every event arrives", { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "billing-crash-"));
    const port = 30_000 + Math.floor(Math.random() * 20_000);
    const db = await scratchDatabase();
    const rcv = await Receiver.start();
    rcv.answer = (_r, nth) => (nth === 1 ? "hang" : { status: 200 });
    try {
      const a = await startInstance(dataDir, port, db.url);
      children.push(a.child);
      const { createTenant } = await a.gql(`mutation { createTenant(name: "crash", mode: SANDBOX) { id } }`);
      const t = createTenant.id as string;
      const { createApiKey } = await a.gql(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: READ) { key } }`, { t });
      await a.gql(`mutation($t: ID!, $u: String!) { createWebhookEndpoint(tenantId: $t, url: $u) { id } }`, { t, u: rcv.url });
      const { createProduct } = await a.gql(`mutation($t: ID!) { createProduct(tenantId: $t, name: "App") { id } }`, { t });
      const { createPlan } = await a.gql(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "Pro", entitlements: {seats: 1}) { id } }`, {
        t,
        p: createProduct.id,
      });
      const { createOffer } = await a.gql(
        `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "Pro", interval: MONTH, priceCents: 4990, currency: "brl",
           gateway: "sandbox", collectionMethods: [CARD_AUTO], trialDays: 0) { id } }`,
        { t, p: createPlan.id },
      );
      const checkout = await fetch(`${a.base}/checkout/${createOffer.id}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          external_id: "crash-1", name: "Maria Silva", email: "crash-1@example.com", phone: "11987654321", doc: CPF, method: "card",
          card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2035", card_cvc: "123",
        }),
      });
      expect(checkout.status).toBe(201);

      await rcv.waitFor((rs) => rs.length >= 1);
      const cut = rcv.requests[0]!.body.id as string;
      a.child.kill("SIGKILL"); // the first delivery is on the wire, unanswered
      await new Promise((r) => a.child.once("exit", r));

      const b = await startInstance(dataDir, port, db.url);
      children.push(b.child);
      const events = await fetch(`${b.base}/v1/events`, { headers: { authorization: `Bearer ${createApiKey.key}` } }).then((r) => r.json());
      const ids: string[] = events.results.map((e: { id: string }) => e.id);
      expect(ids).toHaveLength(2);
      expect(ids).toContain(cut);
      await rcv.waitFor((rs) => ids.every((id) => rs.some((r) => r.body?.id === id && r.answered === 200)), 30_000);
      for (const id of ids) expect(rcv.of(id).length).toBeLessThanOrEqual(2); // the cut attempt, then its resend
      expect(rcv.of(cut).length).toBe(2);

      const statuses = async () =>
        (await b.gql(`query($t: ID!) { webhookDeliveries(tenantId: $t) { edges { node { status } } } }`, { t })).webhookDeliveries.edges.map((e: any) => e.node.status);
      await expect.poll(statuses).toEqual(["DELIVERED", "DELIVERED"]);
      b.child.kill("SIGTERM");
      await new Promise((r) => b.child.once("exit", r));
    } finally {
      await rcv.stop();
      await db.drop();
    }
  });
});
