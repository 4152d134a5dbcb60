// The service under drill: the real main.ts as a child process (test/helpers/child-service.ts) on one
// database and one port across restarts, with short leases and fast job ticks, armed per trial
// through CRASH_AT_FILE (core/shared/crash-faults.ts), and the public surfaces the drills use.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CPF } from "../helpers/billing.ts";
import { CHILD_ADMIN_TOKEN, freePort, startChildService, type ChildService } from "../helpers/child-service.ts";

/** Leases short enough that a crashed holder's work comes back within a trial (docs/reference/configuration.md). */
export const DRILL_LEASE_MS = 1_000;

export const DRILL_ENV: Record<string, string> = {
  BILLING_LEASE_MS: String(DRILL_LEASE_MS),
  REFUND_LEASE_MS: String(DRILL_LEASE_MS),
  WEBHOOK_LEASE_MS: String(DRILL_LEASE_MS),
  PAYMENT_IN_FLIGHT_MS: String(DRILL_LEASE_MS),
  JOB_LEASE_MS: String(DRILL_LEASE_MS),
  JOB_SCHEDULES: "billing-run=*/2 * * * * *;reconcile-payments=* * * * * *",
};

export class DrillService {
  child!: ChildService;
  starts = 0;
  private tag = 0;
  private readonly crashFile: string;

  private constructor(
    readonly databaseUrl: string,
    readonly port: number,
    private readonly dataDir: string,
    /** More environment for this drill's child (on top of DRILL_ENV). */
    private readonly env: Record<string, string> = {},
  ) {
    this.crashFile = path.join(dataDir, "crash-at");
  }

  static async start(databaseUrl: string, env: Record<string, string> = {}): Promise<DrillService> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "billing-drill-"));
    const svc = new DrillService(databaseUrl, await freePort(), dir, env);
    await svc.restart();
    return svc;
  }

  get baseUrl(): string {
    return this.child.baseUrl;
  }

  /** (Re)start on the same database, port and data directory; the crash file is read at every fault hit. */
  async restart(): Promise<void> {
    this.disarm();
    this.child = await startChildService({
      databaseUrl: this.databaseUrl,
      port: this.port,
      dataDir: this.dataDir,
      env: { ...DRILL_ENV, ...this.env, CRASH_AT_FILE: this.crashFile },
    });
    this.starts++;
  }

  /** SIGKILL at the nth hit of `point` from now on. */
  arm(point: string, nth: number): void {
    fs.writeFileSync(this.crashFile, `${point}:${nth}:${++this.tag}`);
  }

  disarm(): void {
    fs.writeFileSync(this.crashFile, "");
  }

  alive(): boolean {
    return this.child.proc.exitCode === null && this.child.proc.signalCode === null;
  }

  /** Resolves when the process is gone (killed by a fault point, or by us). */
  exited(): Promise<void> {
    if (!this.alive()) return Promise.resolve();
    return new Promise((resolve) => this.child.proc.once("exit", () => resolve()));
  }

  async kill(): Promise<void> {
    await this.child.kill();
  }

  async close(): Promise<void> {
    if (this.alive()) await this.child.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  async gql<T = any>(query: string, variables: Record<string, unknown> = {}, key = CHILD_ADMIN_TOKEN): Promise<T> {
    const res = await fetch(`${this.baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: unknown };
    if (body.errors) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
    return body.data as T;
  }

  async v1(method: "GET" | "POST", route: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.baseUrl}/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  }

  async checkout(offerId: string, ext: string, card: string): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.baseUrl}/checkout/${offerId}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: CPF, method: "card",
        card_holder: "MARIA SILVA", card_number: card, card_exp_month: "12", card_exp_year: "2035", card_cvc: "123",
      }),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  }

  advanceClock(tenantId: string, to: string) {
    return this.gql<{ advanceClock: Record<string, number> }>(
      `mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { renewed chargeFailed pastDue unknown errors } }`,
      { t: tenantId, to },
    );
  }
}

export interface DrillTenant {
  tenantId: string;
  writeKey: string;
  /** Offers: basic (4990/month) and pro (9990/month), card, sandbox gateway. */
  basicOfferId: string;
  proOfferId: string;
  endpointIds: string[];
}

/** A sandbox tenant set up through the operator mutations: two offers, two webhook endpoints (one filtered). */
export async function drillTenant(svc: DrillService, name: string, hooks: { all: string; paidOnly: string }, clock: string): Promise<DrillTenant> {
  const { createTenant } = await svc.gql(`mutation($n: String!) { createTenant(name: $n, mode: SANDBOX) { id } }`, { n: name });
  const t = createTenant.id as string;
  const { createApiKey } = await svc.gql(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: WRITE) { key } }`, { t });
  const endpoint = (u: string, e: string[]) =>
    svc.gql(`mutation($t: ID!, $u: String!, $e: [String!]) { createWebhookEndpoint(tenantId: $t, url: $u, events: $e) { id } }`, { t, u, e });
  const all = await endpoint(hooks.all, []);
  const paid = await endpoint(hooks.paidOnly, ["invoice.paid", "payment.refunded"]);
  const { createProduct } = await svc.gql(`mutation($t: ID!) { createProduct(tenantId: $t, name: "App") { id } }`, { t });
  const offer = async (plan: string, price: number) => {
    const { createPlan } = await svc.gql(`mutation($t: ID!, $p: ID!, $n: String!) { createPlan(tenantId: $t, productId: $p, name: $n, entitlements: {seats: 1}) { id } }`, {
      t, p: createProduct.id, n: plan,
    });
    const { createOffer } = await svc.gql(
      `mutation($t: ID!, $p: ID!, $n: String!, $c: Int!) { createOffer(tenantId: $t, planId: $p, name: $n, interval: MONTH, priceCents: $c, currency: "brl",
         gateway: "sandbox", collectionMethods: [CARD_AUTO], trialDays: 0) { id } }`,
      { t, p: createPlan.id, n: plan, c: price },
    );
    return createOffer.id as string;
  };
  const basicOfferId = await offer("Basic", 4990);
  const proOfferId = await offer("Pro", 9990);
  await svc.advanceClock(t, clock);
  return { tenantId: t, writeKey: createApiKey.key, basicOfferId, proOfferId, endpointIds: [all.createWebhookEndpoint.id, paid.createWebhookEndpoint.id] };
}
