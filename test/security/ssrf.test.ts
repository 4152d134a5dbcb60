// API7 (SSRF) through webhook URLs. LIVE tenants: every spelling of an inside address is refused when
// the endpoint is created, names that resolve inside are refused at creation and again on every
// connection (DNS rebinding), a SANDBOX tenant's kept-alive socket is never lent to a LIVE delivery,
// and redirects are not followed. SANDBOX tenants get the same guard, loopback excepted,
// and the delivery log shows every tenant a failure category, never the socket's message (a port scan).
// No test here ever sends a packet beyond loopback: inside addresses come from stubbed DNS or URL
// strings, and a tripwire fails any connection to a non-loopback address before it is made.
import dns from "node:dns";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isPrivateAddress, isPrivateHost } from "../../core/webhooks/endpoint-url.ts";
import { seedDemoTenant } from "../../core/demo/seed-demo-tenant.ts";
import { attemptDelivery } from "../../core/webhooks/attempt-delivery.ts";
import { claimDueDeliveries } from "../../core/webhooks/claim-deliveries.ts";
import { storeOutcomes } from "../../core/webhooks/dispatcher.ts";
import { advanceClock, subscribe } from "../helpers/billing.ts";
import { gql } from "../helpers/http.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { scratchPgDatabase } from "../helpers/child-service.ts";
import { createRuntime } from "../../core/create-runtime.ts";
import { createLogger } from "../../core/shared/logger.ts";
import { openDb } from "../../prisma/client.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { addEndpoint, DELIVERY_FIELDS, deliveries, receiversPerTest } from "../helpers/webhook-receiver.ts";

const INSIDE = [
  "http://127.0.0.1/hooks",
  "http://127.1/",
  "http://2130706433/", // decimal
  "http://0x7f000001/", // hex
  "http://0x7f.0.0.1/",
  "http://0177.0.0.1/", // octal
  "http://017700000001/",
  "http://0.0.0.0/",
  "http://0/",
  "http://10.1.2.3/",
  "http://172.16.0.1/",
  "http://172.31.255.254/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://100.100.100.200/", // Alibaba metadata (CGNAT range)
  "http://169.254.169.254/latest/meta-data/", // AWS/GCP/Azure metadata
  "http://0xa9fea9fe/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  "http://198.18.0.1/",
  "http://[::1]/",
  "http://[0:0:0:0:0:0:0:1]/",
  "http://[::]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[0:0:0:0:0:ffff:a9fe:a9fe]/",
  "http://[::127.0.0.1]/", // IPv4-compatible (deprecated)
  "http://[64:ff9b::a9fe:a9fe]/", // NAT64 of the metadata address
  "http://[2002:7f00:1::1]/", // 6to4 of loopback
  "http://[2001:0::1]/", // Teredo
  "http://[::ffff:0:10.0.0.1]/", // IPv4-translated (RFC 2765)
  "http://[::ffff:0:a9fe:a9fe]/",
  "http://[64:ff9b:1::a00:1]/", // local-use NAT64 (RFC 8215)
  "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", // Teredo, client 10.0.0.1 (inverted bits)
  "http://[2002:a9fe:a9fe::1]/", // 6to4 of the metadata address
  "http://[fd00:ec2::254]/", // AWS IPv6 metadata (unique local)
  "http://[fc00::1]/",
  "http://[fe80::1]/",
  "http://[fec0::1]/",
  "http://[ff02::1]/",
  "http://localhost/",
  "http://LOCALHOST./",
  "http://app.localhost/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://printer.local/",
];

const OUTSIDE = ["https://hooks.example.com/billing", "http://93.184.216.34:8080/x", "https://[2606:4700:4700::1111]/", "http://[::ffff:8.8.8.8]/", "http://[2002:5db8:d822::1]/"];

const createEndpoint = (t: TestTenant, url: string) =>
  gql(`mutation($t: ID!, $u: String!) { createWebhookEndpoint(tenantId: $t, url: $u, events: []) { id } }`, { t: t.tenantId, u: url });

/** DNS as the test says for names under .rebind.test; anything else resolves as usual. */
function fakeDns(answer: (host: string) => string | undefined) {
  const realLookup = dns.lookup.bind(dns);
  const realPromise = dns.promises.lookup.bind(dns.promises);
  vi.spyOn(dns, "lookup").mockImplementation(((host: string, options: any, callback: any) => {
    const cb = typeof options === "function" ? options : callback;
    const opts = typeof options === "function" ? {} : typeof options === "number" ? { family: options } : (options ?? {});
    const address = answer(host);
    if (address === undefined) return (realLookup as any)(host, opts, cb);
    const family = address.includes(":") ? 6 : 4;
    process.nextTick(() => (opts.all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  }) as never);
  vi.spyOn(dns.promises, "lookup").mockImplementation((async (host: string, options: any) => {
    const address = answer(host);
    if (address === undefined) return realPromise(host, options);
    const family = address.includes(":") ? 6 : 4;
    return options?.all ? [{ address, family }] : { address, family };
  }) as never);
}

const receiver = receiversPerTest();
afterEach(async () => {
  vi.restoreAllMocks();
});

describe("SSRF: webhook endpoint creation (LIVE tenants)", () => {
  it("refuses every spelling of a private, loopback, link-local or metadata address", async () => {
    const live = await newTenant({ mode: "LIVE" });
    const accepted: string[] = [];
    for (const url of INSIDE) {
      const r = await createEndpoint(live, url);
      if (!r.errors?.[0]?.message.match(/private or loopback/)) accepted.push(url);
    }
    expect(accepted).toEqual([]);
    fakeDns((host) => (host === "hooks.example.com" ? "93.184.216.34" : undefined));
    for (const url of OUTSIDE) expect({ url, errors: (await createEndpoint(live, url)).errors }).toEqual({ url, errors: undefined });
    // SANDBOX tenants may point at loopback (local receivers while integrating).
    const sandbox = await newTenant();
    expect((await createEndpoint(sandbox, "http://127.0.0.1:9/hooks")).errors).toBeUndefined();
  });

  it("refuses a public-looking name that resolves to an inside address (any of its addresses)", async () => {
    const live = await newTenant({ mode: "LIVE" });
    fakeDns((host) => ({ "a.rebind.test": "10.0.0.7", "b.rebind.test": "::ffff:169.254.169.254", "c.rebind.test": "fd00::5", "ok.rebind.test": "93.184.216.34" })[host]);
    for (const host of ["a.rebind.test", "b.rebind.test", "c.rebind.test"]) {
      const r = await createEndpoint(live, `https://${host}/hooks`);
      expect({ host, error: r.errors?.[0]?.message }).toEqual({ host, error: "url must not target a private or loopback address" });
    }
    expect((await createEndpoint(live, "https://ok.rebind.test/hooks")).errors).toBeUndefined();
  });

  it("classifies addresses by their ranges (unit)", () => {
    for (const a of ["127.0.0.1", "10.255.255.255", "169.254.0.1", "::1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "2002:c0a8:101::", "fe80::1%eth0", "FD12::1"]) {
      expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: true });
    }
    for (const a of ["8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:1.1.1.1", "2002:808:808::", "192.0.3.1"]) {
      expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: false });
    }
    expect(isPrivateHost("hooks.example.com")).toBe(false);
  });

  it("judges every IPv6 form that carries an IPv4 address by that address (unit)", () => {
    const inside = [
      "::ffff:0:10.0.0.1", // translated
      "::ffff:0:a00:1",
      "0:0:0:0:ffff:0:7f00:1",
      "::ffff:0:169.254.169.254",
      "64:ff9b::10.0.0.1", // NAT64 well-known prefix
      "64:ff9b:1::a00:1", // local-use NAT64
      "2002:0a00:0001::", // 6to4
      "2001:0:4136:e378:8000:63bf:f5ff:fffe", // Teredo: client 10.0.0.1 XOR 0xffffffff
      "2001:0:0a00:0001:8000:63bf:f7f6:fefe", // Teredo: server 10.0.0.1, client 8.9.1.1
      "2001:0:0808:0808:8000:63bf:f7f6:fefe", // Teredo with public ends: 2001::/23 stays refused
      "::8.8.8.8", // IPv4-compatible (deprecated) stays refused
    ];
    for (const a of inside) expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: true });
    for (const a of ["::ffff:0:8.8.8.8", "64:ff9b::8.8.8.8", "2002:0808:0808::1"]) expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: false });
    // Nothing outside the global unicast block 2000::/3 is public.
    for (const a of ["4000::1", "1::1", "ff05::1"]) expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: true });
    expect(isPrivateHost("[::1]")).toBe(true);
  });
});

describe("SSRF: webhook delivery (LIVE tenants)", () => {
  it("refuses to connect when the name resolves inside at send time (DNS rebinding after creation)", async () => {
    const live = await newTenant({ mode: "LIVE" });
    const rcv = await receiver();
    const port = new URL(rcv.url).port;
    let inside = false;
    fakeDns((host) => (host === "flip.rebind.test" ? (inside ? "127.0.0.1" : "93.184.216.34") : undefined));
    await addEndpoint(live, `http://flip.rebind.test:${port}/hooks`); // public at creation
    inside = true; // then the name is rebound to loopback, where the receiver listens
    await subscribe(live.monthlyOfferId);
    await expect.poll(async () => (await deliveries(live)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1]);
    for (const d of await deliveries(live)) {
      expect(d.status).toBe("PENDING");
      expect(d.attempts[0].error).toBe("address_not_allowed");
    }
    expect(rcv.requests).toHaveLength(0);
  });

  it("never lends a SANDBOX delivery's kept-alive socket to an inside address to a LIVE delivery", async () => {
    const rcv = await receiver();
    const port = new URL(rcv.url).port;
    fakeDns((host) => (host === "shared.rebind.test" ? "127.0.0.1" : undefined));
    const url = `http://shared.rebind.test:${port}/hooks`;
    const sandbox = await newTenant();
    await addEndpoint(sandbox, url);
    await subscribe(sandbox.monthlyOfferId);
    await rcv.waitFor((rs) => rs.length === 2); // a kept-alive socket to 127.0.0.1 now sits in the pool

    const live = await newTenant({ mode: "LIVE" });
    const { testService } = await import("../helpers/service.ts");
    const { newId } = await import("../../core/shared/ids.ts");
    // Inserted directly: creation would refuse the name, but a row may predate a DNS change.
    await (await testService()).runtime.db.prisma.webhookEndpoint.create({
      data: { id: newId("webhookEndpoint"), tenantId: live.tenantId, url, events: [], secret: "whsec_x" },
    });
    await subscribe(live.monthlyOfferId);
    await expect.poll(async () => (await deliveries(live)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1]);
    for (const d of await deliveries(live)) expect(d.attempts[0].error).toBe("address_not_allowed");
    expect(rcv.requests.filter((r) => r.body?.tenant_id === live.tenantId)).toHaveLength(0);
  });

  it("does not follow redirects: a 3xx is a failed attempt and its Location is never contacted", async () => {
    const t = await newTenant();
    const target = await receiver();
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: target.url }).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      await addEndpoint(t, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
      await subscribe(t.monthlyOfferId);
      await expect.poll(async () => (await deliveries(t)).map((d) => `${d.status}:${d.lastStatusCode}`), { timeout: 10_000 }).toEqual(["PENDING:307", "PENDING:307"]);
      expect(target.requests).toHaveLength(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

/** The delivery log as the tenant reads it, with its own read key. */
async function deliveryLog(t: TestTenant): Promise<any[]> {
  const r = await gql(`{ webhookDeliveries(first: 20) { edges { node { ${DELIVERY_FIELDS} } } } }`, {}, t.readKey);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.webhookDeliveries.edges.map((e: any) => e.node);
}

/**
 * Fails, before any packet leaves, every connection this process tries to a non-loopback address
 * (literal or resolved); returns the addresses it stopped. Old code would have connected to them.
 */
function tripwire(): string[] {
  const stopped: string[] = [];
  const loopback = (a: string) => /^127\./.test(a) || a === "::1" || /^::ffff:127\./i.test(a);
  const stop = (address: string) => {
    stopped.push(address);
    return Object.assign(new Error(`tripwire: no connection to ${address} in tests`), { code: "ETRIPWIRE" });
  };
  const realConnect = net.Socket.prototype.connect;
  vi.spyOn(net.Socket.prototype, "connect").mockImplementation(function (this: net.Socket, ...args: any[]) {
    const options = Array.isArray(args[0]) ? args[0][0] : args[0];
    if (options && typeof options === "object" && typeof options.host === "string" && !options.path) {
      const host = options.host.replace(/^\[|\]$/g, "");
      if (net.isIP(host)) {
        if (!loopback(host)) {
          const err = stop(host);
          process.nextTick(() => this.destroy(err));
          return this;
        }
      } else {
        const inner = options.lookup ?? dns.lookup;
        options.lookup = (h: string, o: any, cb: any) =>
          inner(h, o, (err: any, address: any, family: any) => {
            if (err) return cb(err, address, family);
            const list: string[] = Array.isArray(address) ? address.map((a: any) => a.address) : [address];
            const outside = list.find((a) => !loopback(a));
            return outside ? cb(stop(outside), "", 0) : cb(null, address, family);
          });
      }
    }
    return (realConnect as any).apply(this, args);
  } as never);
  return stopped;
}

/** A loopback port where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe("SSRF: SANDBOX tenants get the same address guard, loopback excepted", () => {
  it("refuses private, link-local/metadata, CGNAT and unique-local URLs at creation with a 422; loopback stays allowed", async () => {
    const sandbox = await newTenant();
    const refused = ["http://10.0.0.5/", "http://169.254.169.254/", "http://192.168.1.1/", "http://[fd00::1]/", "http://172.16.0.1/", "http://100.100.100.200/",
      "http://0xa9fea9fe/", "http://[::ffff:169.254.169.254]/", "http://[fe80::1]/", "http://0.0.0.0/", "http://[::]/", "http://[64:ff9b::a9fe:a9fe]/",
      "http://[2002:7f00:1::1]/", "http://metadata.google.internal/", "http://printer.local/", "http://224.0.0.1/"];
    const answers = [];
    for (const url of refused) {
      const r = await createEndpoint(sandbox, url);
      answers.push({ url, code: r.errors?.[0]?.extensions?.code, status: r.errors?.[0]?.extensions?.status, message: r.errors?.[0]?.message });
    }
    const want = { code: "invalid_argument", status: 422, message: "url must not target a private address (SANDBOX tenants may use loopback only)" };
    expect(answers).toEqual(refused.map((url) => ({ url, ...want })));
    fakeDns((host) => (host === "hooks.example.com" ? "93.184.216.34" : undefined));
    for (const url of ["http://127.0.0.1:9/hooks", "http://127.8.9.10/", "http://[::1]:9/", "http://localhost:3000/demo/webhooks", "http://[::ffff:127.0.0.1]/", "https://hooks.example.com/"]) {
      expect({ url, errors: (await createEndpoint(sandbox, url)).errors }).toEqual({ url, errors: undefined });
    }
  });

  it("refuses a name that resolves inside at creation, but not one that resolves to loopback", async () => {
    const sandbox = await newTenant();
    fakeDns((host) => ({ "a.rebind.test": "10.0.0.7", "b.rebind.test": "169.254.169.254", "c.rebind.test": "fd00::5", "lo.rebind.test": "127.0.0.1" })[host]);
    for (const host of ["a.rebind.test", "b.rebind.test", "c.rebind.test"]) {
      const r = await createEndpoint(sandbox, `http://${host}/hooks`);
      expect({ host, code: r.errors?.[0]?.extensions?.code }).toEqual({ host, code: "invalid_argument" });
    }
    expect((await createEndpoint(sandbox, "http://lo.rebind.test/hooks")).errors).toBeUndefined();
  });

  it("never connects when the name resolves inside at send time (rebinding after creation), nor to an inside literal stored earlier", async () => {
    const stopped = tripwire();
    const sandbox = await newTenant();
    const rcv = await receiver();
    const port = new URL(rcv.url).port;
    let inside = false;
    fakeDns((host) => (host === "flip.rebind.test" ? (inside ? "10.0.0.5" : "127.0.0.1") : undefined));
    await addEndpoint(sandbox, `http://flip.rebind.test:${port}/hooks`); // loopback at creation: allowed
    inside = true;
    // A row that predates the check, on a literal inside address.
    const { runtime } = await testService();
    const { newId } = await import("../../core/shared/ids.ts");
    await runtime.db.prisma.webhookEndpoint.create({ data: { id: newId("webhookEndpoint"), tenantId: sandbox.tenantId, url: "http://169.254.169.254/latest/meta-data/", events: [], secret: "whsec_x" } });
    await subscribe(sandbox.monthlyOfferId);
    await expect.poll(async () => (await deliveryLog(sandbox)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1, 1, 1]);
    const log = await deliveryLog(sandbox);
    expect(log.map((d) => [d.status, d.lastError, d.attempts[0].error, d.attempts[0].statusCode])).toEqual(Array(4).fill(["PENDING", "address_not_allowed", "address_not_allowed", null]));
    expect(stopped).toEqual([]);
    expect(rcv.requests).toHaveLength(0);
  });

  it("still seeds the demo tenant when PUBLIC_URL is a private address, without its webhook endpoint", async () => {
    const stopped = tripwire();
    // A database of its own: a demo tenant seeded without its endpoint in the shared one would leave
    // later files (the demo receiver's test) with an endpoint-less demo tenant.
    const scratch = process.env.DATABASE_URL ? await scratchPgDatabase("ssrf_demo") : null;
    const db = await openDb({ url: scratch?.url ?? "", pgliteDir: "memory://" });
    try {
      const runtime = await createRuntime(db, createLogger("silent"), { adminToken: ADMIN_TOKEN, publicUrl: "http://10.0.0.5:3000" });
      const warn = vi.spyOn(runtime.logger, "warn");
      const demo = await seedDemoTenant(runtime);
      expect(demo).not.toBeNull();
      expect(await runtime.db.prisma.webhookEndpoint.count({ where: { tenantId: demo!.tenantId } })).toBe(0);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ url: "http://10.0.0.5:3000/demo/webhooks" }), "demo webhook endpoint not created");
      expect(stopped).toEqual([]);
    } finally {
      await db.close();
      await scratch?.drop();
    }
  });
});

describe("the delivery log shows a category, never the socket's message", () => {
  const RAW = /ECONNREFUSED|ETIMEDOUT|EPROTO|connect |timeout after|127\.0\.0\.1|:\d{2,5}\b|ssl|wrong version/i;
  /** Every error text of the log, as one string. */
  const errorTexts = (log: any[]) => JSON.stringify(log.map((d) => [d.lastError, ...d.attempts.map((a: any) => a.error)]));

  it("a closed loopback port is connection_refused, with no errno, address or port; the raw error stays in the server log", async () => {
    const t = await newTenant();
    const port = await closedPort();
    const { runtime } = await testService();
    const info = vi.spyOn(runtime.logger, "info");
    await addEndpoint(t, `http://127.0.0.1:${port}/hooks`);
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveryLog(t)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1]);
    const log = await deliveryLog(t);
    for (const d of log) {
      expect({ lastError: d.lastError, error: d.attempts[0].error, statusCode: d.attempts[0].statusCode }).toEqual({ lastError: "connection_refused", error: "connection_refused", statusCode: null });
    }
    expect(errorTexts(log)).not.toMatch(RAW);
    expect(JSON.stringify(log)).not.toContain(String(port));
    // The operator still has the raw error, in the server log.
    const lines = info.mock.calls.filter((c) => c[1] === "webhook attempt failed" && (c[0] as any).tenant_id === t.tenantId);
    expect(lines).toHaveLength(2);
    expect((lines[0]![0] as any).detail).toMatch(new RegExp(`ECONNREFUSED.*127\\.0\\.0\\.1:${port}`));
  });

  it("a receiver answering 500 is http_status (the code is in statusCode)", async () => {
    const t = await newTenant();
    const rcv = await receiver();
    rcv.answer = () => ({ status: 500 });
    await addEndpoint(t, rcv.url);
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveryLog(t)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1]);
    for (const d of await deliveryLog(t)) {
      expect([d.lastError, d.lastStatusCode, d.attempts[0].error, d.attempts[0].statusCode]).toEqual(["http_status", 500, "http_status", 500]);
    }
  });

  it("an https URL whose handshake fails (a plain-HTTP listener) is tls_error", async () => {
    const t = await newTenant();
    const rcv = await receiver();
    await addEndpoint(t, rcv.url.replace("http:", "https:"));
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveryLog(t)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1]);
    const log = await deliveryLog(t);
    expect(log.map((d) => [d.lastError, d.attempts[0].error])).toEqual([["tls_error", "tls_error"], ["tls_error", "tls_error"]]);
    expect(errorTexts(log)).not.toMatch(RAW);
  });

  it("a receiver that hangs past the cut is timeout", { timeout: 20_000 }, async () => {
    // The dispatcher's cut is 10 s; this attempt is made the way the dispatcher makes it, with a 300 ms cut.
    const T0 = "2027-05-10T12:00:00.000Z";
    const t = await newTenant();
    await advanceClock(t, T0);
    const rcv = await receiver();
    rcv.answer = () => ({ status: 503 });
    await addEndpoint(t, rcv.url);
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveryLog(t)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1]);
    rcv.answer = () => "hang";
    const { runtime } = await testService();
    const prisma = runtime.db.prisma;
    // Leased first, so the service's own dispatcher leaves the retries to this test.
    await prisma.webhookDelivery.updateMany({ where: { tenantId: t.tenantId }, data: { leaseUntil: new Date(Date.now() + 30_000) } });
    await prisma.tenant.update({ where: { id: t.tenantId }, data: { clockAt: new Date(Date.parse(T0) + 60_000) } });
    const claimed = await claimDueDeliveries(prisma, { limit: 10, now: new Date(Date.now() + 31_000), leaseMs: 30_000, perEndpoint: 10, tenantId: t.tenantId });
    expect(claimed).toHaveLength(2);
    await storeOutcomes(runtime, await Promise.all(claimed.map((d) => attemptDelivery(d, runtime.wallClock, 300))));
    const log = await deliveryLog(t);
    expect(log.map((d) => [d.lastError, d.attempts[1].error, d.attempts[1].statusCode])).toEqual([["timeout", "timeout", null], ["timeout", "timeout", null]]);
    expect(errorTexts(log)).not.toMatch(RAW);
  });

  it("rows stored with a raw socket message before categories existed are shown as their category", async () => {
    const t = await newTenant();
    const rcv = await receiver();
    rcv.answer = () => ({ status: 503 });
    await addEndpoint(t, rcv.url);
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveryLog(t)).map((d) => d.attemptCount), { timeout: 10_000 }).toEqual([1, 1]);
    const { runtime } = await testService();
    const prisma = runtime.db.prisma;
    const [a, b] = await deliveryLog(t);
    const legacy: [string, string][] = [
      [a.id, "connect ECONNREFUSED 10.0.0.5:22"],
      [b.id, "timeout after 10000 ms"],
    ];
    for (const [id, raw] of legacy) {
      await prisma.webhookDelivery.update({ where: { id }, data: { lastError: raw, lastStatusCode: null } });
      await prisma.webhookAttempt.updateMany({ where: { deliveryId: id }, data: { error: raw, statusCode: null } });
    }
    const shown = await deliveryLog(t);
    const byId = Object.fromEntries(shown.map((d) => [d.id, [d.lastError, d.attempts[0].error]]));
    expect(byId).toEqual({ [a.id]: ["connection_refused", "connection_refused"], [b.id]: ["timeout", "timeout"] });
    expect(errorTexts(shown)).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|:22\b|timeout after/);
  });
});
