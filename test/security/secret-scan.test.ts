// After 1,000 checkouts (approving, declining, chargeback, timeout cards and Pix; distinctive CVCs;
// some careless clients that send card data under other names) and a few /pay card updates, nothing
// anywhere holds a full card number, a CVC, a clear API key or a gateway credential: every row of
// every table (generic, via information_schema), every event (GET /v1/events) and webhook body
// received, and every log line the service wrote at level trace. The scanner is proven on planted
// data first.
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { REDACT_PATHS } from "../../core/shared/logger.ts";
import { startWebhookDelivery } from "../../jobs/webhook-delivery.job.ts";
import { openDb } from "../../prisma/client.ts";
import { buildService } from "../../server/service.ts";
import { scratchPgDatabase } from "../helpers/child-service.ts";
import { CARDS, CPF } from "../helpers/billing.ts";
import { ADMIN_TOKEN } from "../helpers/service.ts";
import { Receiver } from "../helpers/webhook-receiver.ts";
import { SecretScanner, type Secrets } from "./secret-scanner.ts";

const CHECKOUTS = Number(process.env.SECRET_SCAN_CHECKOUTS ?? 1000);
const CONCURRENCY = process.env.DATABASE_URL ? 8 : 4;
/** 3-digit CVCs from 600-999: no HTTP status, and never a quoted value for another reason. */
const CVCS = ["731", "842", "953", "617", "768", "879", "694", "925"];
const PAY_CARD = "5555555555554444";
const grouped = (n: string, sep: string) => n.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
const fullWidth = (n: string) => n.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));

describe("secret scanner (planted data)", () => {
  const scanner = new SecretScanner({ cardNumbers: [CARDS.ok, PAY_CARD], cvcs: ["731"], keys: ["bk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345", ADMIN_TOKEN] });
  const kinds = (text: string) => scanner.scan("planted", text).map((f) => f.kind);

  it("finds every kind of leak", () => {
    expect(kinds('{"card_number":"4242424242424242"}')).toContain("card_number");
    expect(kinds("card 4242 4242 4242 4242 declined")).toContain("card_number");
    expect(kinds("pan=4242-4242-4242-4242")).toContain("card_number");
    // Other separators and spellings, raw and JSON-escaped.
    for (const spelled of ["4242.4242.4242.4242", "4242/4242/4242/4242", "4242_4242_4242_4242", "4242,4242,4242,4242", "4242\u00a04242\u00a04242\u00a04242", "４２４２４２４２４２４２４２４２"]) {
      expect({ spelled, kinds: kinds(`ref ${spelled} x`) }).toEqual({ spelled, kinds: expect.arrayContaining(["card_number"]) });
      expect({ spelled, kinds: kinds(JSON.stringify({ x: spelled })) }).toEqual({ spelled, kinds: expect.arrayContaining(["card_number"]) });
    }
    expect(kinds('{"x":"4242\\t4242\\t4242\\t4242"}')).toContain("card_number");
    expect(kinds('{"x":"\\uff14\\uff12\\uff14\\uff12 4242 4242 4242"}')).toContain("card_number");
    expect(kinds('{"x":"5105105105105100"}')).toEqual(["card_like_number"]); // a card the run never used
    expect(kinds('{"x":"5105 1051 0510 5100"}')).toEqual(["card_like_number"]);
    expect(kinds("amex 3782-822463-10005")).toEqual(["card_like_number"]);
    expect(kinds('{"card_cvc":"731"}')).toEqual(expect.arrayContaining(["cvc_field", "cvc_next_to_card"]));
    expect(kinds("cvv2=123&x=1")).toEqual(["cvc_field"]);
    expect(kinds('{"brand":"visa","last4":"4242","code":"731"}')).toEqual(["cvc_next_to_card"]);
    expect(kinds("authorization: Bearer bk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345")).toEqual(["api_key"]);
    expect(kinds(`token ${ADMIN_TOKEN}`)).toEqual(["api_key"]);
    expect(kinds("bk_live_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ")).toEqual(["api_key"]); // any clear key
    // Gateway credentials: any clear Stripe secret key, and the ones the run set.
    expect(kinds('{"secretKey":"sk_live_4eC39HqLyjWDarjtT1zdp7dc"}')).toEqual(["api_key"]);
    expect(kinds("Invalid API Key provided: rk_test_51H8xYzAbCdEfGhIjKl")).toEqual(["api_key"]);
    // Pagar.me (sk_ live keys carry no live_) and a Mercado Pago access token.
    expect(kinds('authorization: Basic sk_7b3c0e9d4f1a4e2b8c6d5a3f')).toEqual(["api_key"]);
    expect(kinds('{"accessToken":"APP_USR-4187264019338752-112317-1f0c6a2b9d8e4f7a6b5c3d2e1f0a9b8c-1234567890"}')).toEqual(["api_key"]);
    expect(new SecretScanner({ cardNumbers: [CARDS.ok], cvcs: ["731"], keys: ["whsec_PlantedWebhookSecret0123456789"] }).scan("planted", "sig whsec_PlantedWebhookSecret0123456789").map((f) => f.kind)).toEqual(["api_key"]);
  });

  it("stays quiet on what the service legitimately stores", () => {
    for (const clean of [
      '{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2035,"token":"tok_sandbox_approve_01M7YSF0KGD7BA7E17M2SBWEZH"}',
      '{"phone":"+5511987654321","doc":"52998224725","time":1795255662265,"amount_cents":4990,"http_status":200}',
      '{"copy_paste":"00020101021226520014br.gov.bcb.pix0130pix@sandbox.45jj2ndx6e.example520400005303986540515.005802BR5915SANDBOX"}',
      '{"hash":"44322f6f446ea19511ca32e12ef3e45e31d5f203e0f28229b6a0160137a4045b","hint":"bk_test_AbCd…"}',
      '{"credential_hints":{"secretKey":"sk_live_...4242","webhookSecret":"whsec_...LaSw"},"credentials_ciphertext":"v1.1a2b3c4d.AbCdEfGhIjKlMnOp.QrStUvWxYz012345.c2tfdGVzdF9hYmNk"}',
      '{"credential_hints":{"secretKey":"sk_...9f3a","accessToken":"APP_...7890","publicKey":"APP_USR-6a1b2c3d-1234-4e5f-9a8b-0c1d2e3f4a5b"}}',
      '{"card":{"brand":"visa","last4":"4242"},"status":"731 days"}',
      '{"idempotency_key":"fz-99-mwq92cdo-2967-1276696502","signature":"v1=c3dfb94bd9a31231a851c8ab3a45681752043576179a9da9f45e0932fb655849"}',
    ]) {
      expect({ clean, kinds: kinds(clean) }).toEqual({ clean, kinds: [] });
    }
  });
});

describe("secret scan after 1,000 checkouts", () => {
  it("finds no card number, CVC or clear API key in the database, events, webhook bodies or logs", { timeout: 600_000 }, async () => {
    const started = performance.now();
    // A database of its own (every table is this run's) and an instance logging everything (trace) into memory.
    const scratch = process.env.DATABASE_URL ? await scratchPgDatabase("secret_scan") : null;
    const db = await openDb({ url: scratch?.url ?? "", pgliteDir: "memory://" });
    const lines: string[] = [];
    let partial = "";
    const sink = new Writable({
      write(chunk, _enc, done) {
        const parts = (partial + String(chunk)).split("\n");
        partial = parts.pop() ?? "";
        lines.push(...parts);
        done();
      },
    });
    const logger = pino({ level: "trace", redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, sink);
    const svc = await buildService(db, logger, { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" });
    const delivery = await startWebhookDelivery(svc.runtime);
    const server = svc.app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const receiver = await Receiver.start();
    try {
      const gql = async (query: string, variables: Record<string, unknown>) => {
        const res = await fetch(`${base}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
          body: JSON.stringify({ query, variables }),
        });
        const json = (await res.json()) as { data: any; errors?: unknown[] };
        if (json.errors) throw new Error(JSON.stringify(json.errors));
        return json.data;
      };
      const tenantId = (await gql(`mutation { createTenant(name: "scan", mode: SANDBOX) { id } }`, {})).createTenant.id as string;
      const key = async (scope: string) => (await gql(`mutation($t: ID!, $s: KeyScope!) { createApiKey(tenantId: $t, scope: $s) { key } }`, { t: tenantId, s: scope })).createApiKey.key as string;
      const t = { tenantId, writeKey: await key("WRITE"), readKey: await key("READ") };
      const extraKey = await key("WRITE");
      const { id: productId } = (await gql(`mutation($t: ID!) { createProduct(tenantId: $t, name: "App") { id } }`, { t: tenantId })).createProduct;
      const { id: planId } = (await gql(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "Pro", entitlements: {seats: 5}) { id } }`, { t: tenantId, p: productId })).createPlan;
      const monthlyOfferId = (
        await gql(
          `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "Pro", interval: MONTH, priceCents: 4990, currency: "brl", gateway: "sandbox",
             collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
          { t: tenantId, p: planId },
        )
      ).createOffer.id as string;
      const orderOffer = (
        await gql(
          `mutation($t: ID!, $p: ID!) { createOneTimeOffer(tenantId: $t, planId: $p, name: "Pacote", unitPriceCents: 1500, currency: "brl", gateway: "sandbox", grantDays: 30) { id } }`,
          { t: tenantId, p: planId },
        )
      ).createOneTimeOffer.id as string;
      await gql(`mutation($t: ID!, $u: String!) { createWebhookEndpoint(tenantId: $t, url: $u, events: []) { id } }`, { t: tenantId, u: receiver.url });
      // Gateway credentials: set, replaced, listed and refused; none may surface anywhere.
      const gatewaySecret = (prefix: string) => `${prefix}${Array.from({ length: 32 }, () => "ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz23456789"[Math.floor(Math.random() * 52)]).join("")}`;
      const gatewaySecrets = [gatewaySecret("sk_test_"), gatewaySecret("whsec_"), gatewaySecret("sk_test_"), gatewaySecret("whsec_")];
      const gatewayAccountId = (
        await gql(`mutation($t: ID!, $c: JSON) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: "keys", credentials: $c) { id credentialHints } }`, {
          t: tenantId,
          c: { secretKey: gatewaySecrets[0], webhookSecret: gatewaySecrets[1] },
        })
      ).createGatewayAccount.id as string;
      await gql(`mutation($id: ID!, $c: JSON!) { updateGatewayAccountCredentials(id: $id, credentials: $c) { credentialHints } }`, {
        id: gatewayAccountId,
        c: { secretKey: gatewaySecrets[2], webhookSecret: gatewaySecrets[3] },
      });
      await gql(`query($t: ID!) { gatewayAccounts(tenantId: $t) { id credentialHints credentialsKeyId } }`, { t: tenantId });
      await expect(
        gql(`mutation($t: ID!, $c: JSON) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: "bad", credentials: $c) { id } }`, {
          t: tenantId,
          c: { secretKey: [gatewaySecrets[2]], "bad name": gatewaySecrets[3] },
        }),
      ).rejects.toThrow(/invalid_argument/);

      // 1,000 checkouts: card outcomes, Pix, one-time orders, three encodings, spaced numbers and careless extra fields.
      const MIX = [CARDS.ok, CARDS.ok, CARDS.ok, CARDS.declined, CARDS.insufficient, CARDS.laterDeclines, CARDS.chargeback, CARDS.timeout, "pix", "order"];
      const statuses = new Map<string, number>();
      let next = 0;
      const one = async (i: number) => {
        const kind = MIX[i % MIX.length]!;
        const cvc = CVCS[i % CVCS.length]!;
        const ext = `scan-${i}-${Math.random().toString(36).slice(2, 8)}`;
        const number = kind === "pix" || kind === "order" ? CARDS.ok : kind;
        const spaced = i % 3 === 0 ? number.replace(/(\d{4})(?=\d)/g, "$1 ") : number;
        const fields: Record<string, string> = {
          external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: CPF,
          method: kind === "pix" ? "pix" : "card",
          ...(kind === "pix" ? {} : { card_holder: "MARIA SILVA", card_number: spaced, card_exp_month: "12", card_exp_year: "2035", card_cvc: cvc }),
          utm_source: "scan",
          // Careless clients: card data under names the contract does not know.
          ...(i % 20 === 7 ? { pan: number, cvv2: cvc, security_code: cvc, cc_number: spaced, numero: `${number}`, ref_code: `x ${spaced} y` } : {}),
          // ... and with other separators or full-width digits, in tracking values and names.
          ...(i % 20 === 17 ? { utm_term: grouped(number, "."), promo: `x ${grouped(number, "/")} y`, nota: grouped(number, "\u00a0"), ref_fw: fullWidth(number), [`k ${grouped(number, "_")}`]: "1" } : {}),
        };
        const encoding = i % 10 === 4 ? "form" : i % 10 === 9 ? "multipart" : "json";
        let body: BodyInit;
        const headers: Record<string, string> = { accept: "application/json" };
        if (encoding === "json") {
          headers["content-type"] = "application/json";
          body = JSON.stringify(fields);
        } else if (encoding === "form") {
          headers["content-type"] = "application/x-www-form-urlencoded";
          body = new URLSearchParams(fields).toString();
        } else {
          const form = new FormData();
          for (const [k, v] of Object.entries(fields)) form.append(k, v);
          body = form;
        }
        const offer = kind === "order" ? orderOffer : monthlyOfferId;
        const res = await fetch(`${base}/checkout/${offer}`, { method: "POST", headers, body });
        const key = `${kind === "pix" || kind === "order" ? kind : `card:${kind.slice(-4)}`} -> ${res.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        return (await res.json()) as { subscription_id: string | null };
      };
      const subscriptions: string[] = [];
      const checkoutsStarted = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < CHECKOUTS; i = next++) {
            const r = await one(i);
            if (r.subscription_id && i % 10 < 3) subscriptions.push(r.subscription_id);
          }
        }),
      );
      const checkoutsDone = performance.now();

      // A few /pay card updates (one refused), then a move of the clock: chargebacks, reconciliation of timeouts.
      for (const [n, id] of subscriptions.slice(0, 6).entries()) {
        const link = await fetch(`${base}/v1/subscriptions/${id}/payment-method-link`, { method: "POST", headers: { authorization: `Bearer ${t.writeKey}` } });
        const token = new URL(((await link.json()) as { url: string }).url).pathname.split("/").pop();
        const card = n === 0 ? CARDS.declined : PAY_CARD;
        await fetch(`${base}/pay/${token}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: n % 2 ? "application/json" : "text/html" },
          body: new URLSearchParams({ card_holder: "MARIA SILVA", card_number: card, card_exp_month: "11", card_exp_year: "2036", card_cvc: CVCS[n]! }).toString(),
        });
      }
      await gql(`mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { steps } }`, {
        t: t.tenantId,
        to: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      });
      // Let the webhook deliveries of the run settle.
      const sql = db.sql;
      for (let i = 0; i < 300; i++) {
        const [row] = (await sql.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING'", [t.tenantId])) as { n: number }[];
        if (!row?.n) break;
        await new Promise((r) => setTimeout(r, 100));
      }

      // The scan.
      const scanStarted = performance.now();
      const secrets: Secrets = {
        cardNumbers: [...new Set([...Object.values(CARDS), PAY_CARD])],
        cvcs: CVCS,
        keys: [t.writeKey, t.readKey, extraKey, ADMIN_TOKEN, ...gatewaySecrets],
      };
      const scanner = new SecretScanner(secrets);
      const findings = [];
      const tables = (await sql.query(
        // _app_migrations holds our own migration names (timestamps, one of them happens to pass Luhn), no data.
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_app_migrations' ORDER BY table_name",
      )) as { table_name: string }[];
      const [cols] = (await sql.query(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = current_schema()
           AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED')`,
      )) as { n: number }[];
      let rows = 0;
      for (const { table_name } of tables) {
        const dump = (await sql.query(`SELECT t::text AS row FROM "${table_name}" t`)) as { row: string }[];
        rows += dump.length;
        for (const { row } of dump) findings.push(...scanner.scan(`table ${table_name}`, row));
      }
      let events = 0;
      for (let after: string | null = null; ; ) {
        const res = await fetch(`${base}/v1/events?limit=500${after ? `&after=${after}` : ""}`, { headers: { authorization: `Bearer ${t.readKey}` } });
        const page = (await res.json()) as { results: unknown[]; next: string | null };
        events += page.results.length;
        for (const e of page.results) findings.push(...scanner.scan("GET /v1/events", JSON.stringify(e)));
        if (!page.next) break;
        after = page.next;
      }
      for (const r of receiver.requests) findings.push(...scanner.scan("webhook body", r.raw), ...scanner.scan("webhook headers", JSON.stringify(r.headers)));
      if (partial) lines.push(partial);
      for (const line of lines) findings.push(...scanner.scan("log", line));
      const done = performance.now();

      console.log(
        [
          `secret scan: ${CHECKOUTS} checkouts (${[...statuses].map(([k, v]) => `${k}: ${v}`).join(", ")}) in ${((checkoutsDone - checkoutsStarted) / 1000).toFixed(1)} s at concurrency ${CONCURRENCY} on ${db.kind}`,
          `  scanned ${tables.length} tables (${cols?.n} text/json/array/enum columns), ${rows} rows, ${events} events, ${receiver.requests.length} webhook bodies, ${lines.length} log lines in ${((done - scanStarted) / 1000).toFixed(1)} s`,
          `  total ${((done - started) / 1000).toFixed(1)} s, findings: ${findings.length}`,
        ].join("\n"),
      );
      expect(findings.slice(0, 10)).toEqual([]);
      expect([...statuses.keys()].some((k) => k.endsWith("-> 201"))).toBe(true);
      expect([...statuses.keys()].some((k) => k.endsWith("-> 422"))).toBe(true);
      expect(lines.length).toBeGreaterThan(CHECKOUTS);
      expect(receiver.requests.length).toBeGreaterThan(0);
    } finally {
      // Each clean-up step is bounded and named: once, in a full PostgreSQL run, clean-up after a clean
      // scan held the test until its 600 s timeout, and which step held it was not known.
      const step = async (what: string, work: () => Promise<unknown>) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), 30_000)));
        if ((await Promise.race([work(), late])) === "late") console.warn(`secret scan clean-up: ${what} still running after 30 s; moving on`);
        clearTimeout(timer);
      };
      await step("webhook delivery stop", () => delivery.stop());
      await step("receiver stop", () => receiver.stop());
      server.closeAllConnections();
      await step("server close", () => new Promise((r) => server.close(r)));
      await step("db close", () => db.close());
      // Pool clients finish ending after close() resolves; a forced drop would kill them mid-goodbye.
      if (scratch) await step("scratch drop", () => new Promise((r) => setTimeout(r, 1_000)).then(() => scratch.drop()));
    }
  });
});
