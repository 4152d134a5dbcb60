// No gateway secret in the service's log: a second instance on the shared database logs everything (trace)
// into memory while a developer connects Stripe from the panel, is refused a wrong key, meets a provider
// outage, and rotates the key; the log is then searched for every secret typed.
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDACT_PATHS } from "../../core/shared/logger.ts";
import { buildService } from "../../server/service.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { invite, PanelBrowser, PASSWORD, uniqueEmail } from "../helpers/panel.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const alnum = (n: number) => randomBytes(n).toString("base64url").replace(/[-_]/g, "x");
const SECRET_KEY = `sk_test_${alnum(24)}`;

const WRONG_KEY = `sk_test_${alnum(24)}`;
const WEBHOOK_SECRET = `whsec_${alnum(24)}`;

const lines: string[] = [];
let baseUrl = "";
let close: () => Promise<void> = async () => {};
let stripe: FakeStripe;

beforeAll(async () => {
  const shared = await testService();
  // The production logger's redaction, writing into memory at the most verbose level.
  const logger = pino({ level: "trace", redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, { write: (line: string) => void lines.push(line) });
  const service = await buildService(shared.runtime.db, logger, { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost", allowGatewayBaseUrlOverride: true });
  const server = service.app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await close();
  await stripe?.close();
});

describe("gateway secrets and the log", () => {
  it("connecting, a refused key, an outage and a rotation leave no secret in the log", { timeout: 120_000 }, async () => {
    const t = await newTenant();
    const email = uniqueEmail("log");
    const path = await invite(t.tenantId, email, "DEVELOPER");
    const b = new PanelBrowser(baseUrl);
    expect((await b.submit(path, path, { password: PASSWORD })).status).toBe(200);
    expect((await b.submit("/panel/login", "/panel/login", { email, password: PASSWORD })).status).toBe(303);

    const connect = (key: string) => b.submit("/panel/gateways/connect/stripe", "/panel/gateways/connect/stripe", { name: `s-${alnum(4)}`, cred_secretKey: key, apiBaseUrl: stripe.url });
    expect((await connect(WRONG_KEY)).status).toBe(422);
    const done = await connect(SECRET_KEY);
    expect(done.status).toBe(303);
    const id = done.location!.split("/")[3]!.split("?")[0]!;
    stripe.failNext("500", { path: /balance/ });
    const outage = await b.submit(`/panel/gateways/${id}`, `/panel/gateways/${id}/credentials`, { cred_webhookSecret: WEBHOOK_SECRET });
    expect(outage.status).toBe(422);
    expect(outage.html).toContain("could not be reached");
    expect((await b.submit(`/panel/gateways/${id}`, `/panel/gateways/${id}/credentials`, { cred_webhookSecret: WEBHOOK_SECRET })).status).toBe(303);

    // The log heard these requests (the check below is not vacuous)...
    const log = lines.join("");
    expect(log).toContain("/panel/gateways/connect/stripe");
    // ...and holds none of the secrets typed.
    for (const secret of [SECRET_KEY, WRONG_KEY, WEBHOOK_SECRET]) expect({ leaked: log.includes(secret) }).toEqual({ leaked: false });
  });
});
