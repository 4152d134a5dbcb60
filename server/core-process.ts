// The core process (`npm start [-- --role api|jobs|all]`): GraphQL, /v1, docs and hosted pages (api),
// the scheduled jobs (jobs), or both (all, the default), on one database. Refuses to start on a weak
// or wrong secret before anything serves; prints the banner once it does.
import v8 from "node:v8";
import fs from "node:fs";
import path from "node:path";
import { ensureDemoOwner, seedDemoTenant, type DemoTenant } from "../core/demo/seed-demo-tenant.ts";
import { checkCredentialsKey } from "../core/gateways/check-credentials-key.ts";
import { CredentialKeyError, CredentialsVault, loadCredentialKeys, type CredentialKeyRing } from "../core/gateways/credentials-vault.ts";
import { createRuntime } from "../core/create-runtime.ts";
import { crashFaultsFromEnv } from "../core/shared/crash-faults.ts";
import { createLogger } from "../core/shared/logger.ts";
import { operatorTokenWeakness, prepareTokenEstimatesApart, randomBase62 } from "../core/shared/secrets.ts";
import { startScheduler } from "../jobs/scheduler.ts";
import { defaultMailer } from "../jobs/send-emails.job.ts";
import type { Mailer } from "../core/emails/mailer.ts";
import { openDb } from "../prisma/client.ts";
import { dataDir } from "../prisma/connection.ts";
import { FOLLOWER_ENV, reportStarted, workerCount } from "./workers.ts";
import { metricsBannerLine, metricsExposureFromEnv, startMetricsListener, type MetricsExposure } from "./metrics-endpoint.ts";

/** api: HTTP only; jobs: the scheduled jobs only; all: both. */
export type CoreRole = "api" | "jobs" | "all";

export async function startCore(role: CoreRole): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  const logger = createLogger();

  /** ADMIN_TOKEN, or one generated on the first run and kept in the data directory. */
  function adminToken(): { token: string; generated: boolean; file: string } {
    const file = path.join(dataDir(), "admin-token");
    if (process.env.ADMIN_TOKEN) return { token: process.env.ADMIN_TOKEN, generated: false, file };
    if (fs.existsSync(file)) return { token: fs.readFileSync(file, "utf8").trim(), generated: false, file };
    fs.mkdirSync(dataDir(), { recursive: true });
    const token = `adm_${randomBase62(40)}`;
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
    return { token, generated: true, file };
  }

  const admin = adminToken();
  // The start-up tokens' strength is estimated in a process of its own: the dictionaries stay out of this one.
  prepareTokenEstimatesApart([admin.token, process.env.FACADE_SECRET ?? "", process.env.METRICS_TOKEN ?? ""]);
  // A weak operator token is refused before anything starts: it opens every tenant.
  const weakness = operatorTokenWeakness(admin.token);
  if (weakness) {
    const source = process.env.ADMIN_TOKEN ? "ADMIN_TOKEN" : `the operator token in ${admin.file}`;
    console.error(
      `refusing to start: ${source} is too weak: ${weakness}.\n` +
        "  It opens every tenant. Unset ADMIN_TOKEN to have a random one generated and stored in the data directory,\n" +
        "  or set a random value of 32 or more characters (for example: openssl rand -base64 32).",
    );
    process.exit(1);
  }
  // A guessable FACADE_SECRET would let anyone speak as the /v1 facade (forge client addresses, skip the failed-key cap).
  const facadeWeakness = process.env.FACADE_SECRET ? operatorTokenWeakness(process.env.FACADE_SECRET) : null;
  if (facadeWeakness) {
    console.error(`refusing to start: FACADE_SECRET is too weak: ${facadeWeakness}.\n  Set the same random value of 32 or more characters on the core and the facade (for example: openssl rand -base64 32).`);
    process.exit(1);
  }
  // A weak METRICS_TOKEN or a bad METRICS_PORT is refused before anything starts, like the secrets above.
  let metricsExposure: MetricsExposure;
  try {
    metricsExposure = metricsExposureFromEnv();
  } catch (err) {
    console.error(`refusing to start: ${(err as Error).message}`);
    process.exit(1);
  }
  // A wrong GATEWAY_CREDENTIALS_KEY is refused before anything starts: credentials sealed under it could not be read elsewhere.
  let gatewayCredentialKeys: CredentialKeyRing;
  try {
    gatewayCredentialKeys = loadCredentialKeys();
  } catch (err) {
    if (!(err instanceof CredentialKeyError)) throw err;
    console.error(`refusing to start: ${err.message}`);
    process.exit(1);
  }
  if (gatewayCredentialKeys.source === "data_dir" && process.env.DATABASE_URL) {
    logger.warn("GATEWAY_CREDENTIALS_KEY is not set: gateway credentials are sealed under a key in this host's data directory; set the same GATEWAY_CREDENTIALS_KEY on every instance sharing the database");
  }
  // A malformed SMTP_URL is refused like the settings above; an unreachable server is only a warning (below).
  let mailer: Mailer;
  try {
    mailer = defaultMailer({ logger });
  } catch (err) {
    console.error(`refusing to start: ${(err as Error).message}`);
    process.exit(1);
  }
  const db = await openDb();
  // A key that opens none of the credentials already stored is refused too (a valid-looking wrong key).
  try {
    await checkCredentialsKey(db.prisma, new CredentialsVault(gatewayCredentialKeys));
  } catch (err) {
    if (!(err instanceof CredentialKeyError)) throw err;
    console.error(`refusing to start: ${err.message}`);
    await db.close();
    process.exit(1);
  }
  const config = {
    adminToken: admin.token,
    publicUrl,
    allowGatewayBaseUrlOverride: process.env.GATEWAY_ALLOW_BASE_URL_OVERRIDE === "true",
    gatewayCredentialKeys,
  };
  // A jobs instance holds only the runtime: no HTTP app, no GraphQL schema (less memory per worker).
  const service =
    role === "jobs" ? null : await (await import("./service.ts")).buildService(db, logger, config, { redisUrl: process.env.REDIS_URL, metricsToken: metricsExposure.token });
  const runtime = service?.runtime ?? (await createRuntime(db, logger, config));
  runtime.faults = crashFaultsFromEnv(); // crash drills only (CRASH_AT, CRASH_AT_FILE); unset in production

  const server = service?.app.listen(port);
  // Every role, jobs included: the billing and webhook counters are counted where the jobs run.
  const metricsServer = metricsExposure.port ? await startMetricsListener(metricsExposure.port) : undefined;
  const scheduler = role === "api" ? undefined : await startScheduler(runtime);
  // Workers after the first (--workers N) leave the demo tenant and the banner to the first one.
  const follower = !!process.env[FOLLOWER_ENV];
  const demo = role === "jobs" || follower ? null : await seedDemoTenant(runtime);
  // A demo tenant from before the panel gets its owner on the next start.
  const laterOwner = role === "jobs" || follower || demo ? null : await ensureDemoOwner(runtime);
  // Not awaited before serving: billing never waits on SMTP, and the outbox retries once it answers.
  if (scheduler) {
    mailer.verify().catch((err: Error) => logger.warn({ err: err.message, transport: mailer.description }, "e-mail transport is not reachable yet: messages stay queued and are retried"));
  }
  if (!follower) printBanner(demo);
  reportStarted();

  let stoppingSince = 0;
  async function shutdown() {
    if (stoppingSince) {
      // A second signal forces the exit; one within 2 s is the same Ctrl+C reaching a --workers worker
      // twice (from the terminal's process group and relayed by the primary).
      if (Date.now() - stoppingSince > 2_000) process.exit(1);
      return;
    }
    stoppingSince = Date.now();
    server?.close();
    metricsServer?.close();
    await scheduler?.stop();
    await db.close();
    process.exit(0);
  }
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);

  function printBanner(seeded: DemoTenant | null) {
    const workers = workerCount();
    const lines = [`billing service (${role}) on ${db.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}${workers > 1 ? `, ${workers} workers` : ""}`];
    // Node sizes the heap from the host's memory; V8 then lets garbage pile up to it (docs/operations/production.md).
    const heapMb = Math.round(v8.getHeapStatistics().heap_size_limit / 1048576);
    const sized = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(" ")].some((a) => a.startsWith("--max-old-space-size"));
    lines.push(`  V8 heap limit: ${heapMb} MB${sized ? "" : " (node's default for this host; `npm start` runs with --max-old-space-size=1024)"}`);
    if (server) lines.push(`  base URL:   ${publicUrl}`, `  GraphiQL:   ${publicUrl}/graphql`, `  API docs:   ${publicUrl}/docs`);
    lines.push(metricsBannerLine(metricsExposure, server ? publicUrl : undefined));
    lines.push(`  e-mail:     ${mailer.description}${scheduler ? "" : " (sent by the jobs role)"}`);
    if (admin.generated) lines.push(`  operator token (stored in ${admin.file}, shown once): ${admin.token}`);
    else lines.push(`  operator token: ${process.env.ADMIN_TOKEN ? "from ADMIN_TOKEN" : `in ${admin.file}`}`);
    if (seeded) {
      lines.push(
        "",
        `  demo tenant ${seeded.tenantId} (SANDBOX). Keys are shown once:`,
        `  write key:  ${seeded.writeKey}`,
        `  read key:   ${seeded.readKey}`,
        `  checkout:   ${publicUrl}/checkout/${seeded.monthlyOfferId}?coupon=${seeded.couponCode}   (card 4242 4242 4242 4242)`,
        ...panelLines(seeded.panelOwner),
        "",
        "  try:",
        `  curl -s ${publicUrl}/v1/entitlements?external_id=demo-customer -H 'Authorization: Bearer ${seeded.readKey}'`,
        `  curl -s '${publicUrl}/v1/subscriptions?limit=10' -H 'Authorization: Bearer ${seeded.readKey}'`,
        `  curl -s ${publicUrl}/v1/events -H 'Authorization: Bearer ${seeded.writeKey}'`,
      );
    } else if (server) {
      lines.push(...panelLines(laterOwner));
      lines.push(
        "",
        "  the demo tenant exists; its keys were printed on the first run. Mint a new one with:",
        `  curl -s ${publicUrl}/graphql -H 'Authorization: Bearer <operator token>' -H 'Content-Type: application/json' \\`,
        `    -d '{"query":"mutation { createApiKey(tenantId: \\"<tn_ id>\\", scope: WRITE) { key } }"}'`,
        `  (list tenants: {"query":"{ tenants { id name } }"})`,
      );
    }
    console.log(lines.join("\n"));
  }

  function panelLines(owner: { email: string; password: string } | null): string[] {
    if (!owner || !server) return [];
    return [`  panel:      ${publicUrl}/panel/login   e-mail ${owner.email}   password (shown once): ${owner.password}`];
  }
}
