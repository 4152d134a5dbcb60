// API7 (SSRF) through webhook URLs. LIVE tenants: every spelling of an inside address is refused when
// the endpoint is created, names that resolve inside are refused at creation and again on every
// connection (DNS rebinding), a SANDBOX tenant's kept-alive socket is never lent to a LIVE delivery,
// and redirects are not followed.
import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isPrivateAddress, isPrivateHost } from "../../core/webhooks/endpoint-url.ts";
import { subscribe } from "../helpers/billing.ts";
import { gql } from "../helpers/http.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { addEndpoint, deliveries, receiversPerTest } from "../helpers/webhook-receiver.ts";

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
      expect(d.attempts[0].error).toBe("refused: flip.rebind.test resolves to a private address");
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
    for (const d of await deliveries(live)) expect(d.attempts[0].error).toMatch(/^refused: .*private address/);
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
