// The retry schedule on a sandbox clock, to the minute: first attempt at once, then +1 min, +5 min,
// +30 min, +2 h, +6 h, +24 h from the previous attempt; exhausted after 7 with an alarm; a manual
// redelivery; an outage that loses nothing; a malformed URL that fails once and for all; a
// receiver that hangs is cut at 10 s without holding up another endpoint.
import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { attemptDelivery } from "../../core/webhooks/attempt-delivery.ts";
import { claimDueDeliveries } from "../../core/webhooks/claim-deliveries.ts";
import { storeOutcomes } from "../../core/webhooks/dispatcher.ts";
import { isPrivateHost } from "../../core/webhooks/endpoint-url.ts";
import { newId } from "../../core/shared/ids.ts";
import { advanceClock, CARDS, subscribe } from "../helpers/billing.ts";
import { get, gql, op } from "../helpers/http.ts";
import { metricsText, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { addEndpoint, deliveries, receiversPerTest } from "../helpers/webhook-receiver.ts";

const T0 = "2027-05-10T12:00:00.000Z";
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const MIN = 60_000;

const receiver = receiversPerTest();
afterEach(async () => {
  vi.restoreAllMocks();
});

/** A sandbox tenant on its clock at T0 with one endpoint that answers 503. */
async function tenantAnswered503() {
  const t = await newTenant();
  await advanceClock(t, T0);
  const rcv = await receiver();
  rcv.answer = () => ({ status: 503 });
  await addEndpoint(t, rcv.url);
  return { t, rcv };
}

describe("webhook retries on the tenant's clock", () => {
  it("retries at +1m, +5m, +30m, +2h, +6h, +24h, then exhausts with an alarm; redeliverEvent starts over", { timeout: 60_000 }, async () => {
    const { t, rcv } = await tenantAnswered503();
    const { runtime } = await testService();
    const alarm = vi.spyOn(runtime.logger, "error");

    await subscribe(t.monthlyOfferId); // subscription.activated + invoice.paid at T0
    await rcv.waitFor((rs) => rs.length === 2); // first attempts: at once, without moving the clock
    await expect.poll(async () => (await deliveries(t)).map((d) => d.nextAttemptAt)).toEqual([at(MIN), at(MIN)]);

    await advanceClock(t, at(MIN - 1000));
    expect(rcv.requests).toHaveLength(2); // 59 s later: nothing due yet
    await advanceClock(t, at(MIN));
    expect(rcv.requests).toHaveLength(4);
    expect((await deliveries(t)).map((d) => d.nextAttemptAt)).toEqual([at(6 * MIN), at(6 * MIN)]);

    // One long move performs every retry that falls due, each at its own instant.
    const summary = await op(`mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { webhookAttempts } }`, {
      t: t.tenantId,
      to: at(3 * 24 * 60 * MIN),
    });
    expect(summary.advanceClock.webhookAttempts).toBe(10);
    const log = await deliveries(t);
    const schedule = [0, 1, 6, 36, 156, 516, 1956].map((m) => at(m * MIN));
    for (const d of log) {
      expect(d).toMatchObject({ status: "EXHAUSTED", attemptCount: 7, nextAttemptAt: null, lastStatusCode: 503, deliveredAt: null });
      expect(d.attempts.map((a: any) => a.scheduledAt)).toEqual(schedule);
      expect(d.attempts.map((a: any) => a.statusCode)).toEqual(Array(7).fill(503));
      expect(d.attempts.map((a: any) => a.attemptNo)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // Every attempt carried the same event, byte for byte.
      const raws = new Set(rcv.of(d.event.id).map((r) => r.raw));
      expect(rcv.of(d.event.id)).toHaveLength(7);
      expect(raws.size).toBe(1);
    }

    // The alarm: an error log line per delivery, the metric, and the GraphQL list (tenant and operator).
    expect(alarm.mock.calls.filter((c) => c[1] === "webhook delivery exhausted")).toHaveLength(2);
    const metrics = await metricsText();
    expect(Number(/^webhook_deliveries_exhausted_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
    const mine = await gql(`{ exhaustedWebhookDeliveries(first: 10) { edges { node { id event { id } } } } }`, {}, t.readKey);
    expect(mine.data.exhaustedWebhookDeliveries.edges.map((e: any) => e.node.id).sort()).toEqual(log.map((d) => d.id).sort());
    const ops = await op(`{ exhaustedWebhookDeliveries(first: 500) { edges { node { id } } } }`);
    const opIds = ops.exhaustedWebhookDeliveries.edges.map((e: any) => e.node.id);
    for (const d of log) expect(opIds).toContain(d.id);

    // The receiver is fixed; the tenant replays one event: a new series, delivered at once.
    rcv.answer = () => ({ status: 204 });
    const eventId = log[0].event.id;
    const red = await gql(`mutation($e: ID!) { redeliverEvent(eventId: $e) { id status nextAttemptAt } }`, { e: eventId }, t.writeKey);
    expect(red.data.redeliverEvent).toEqual([{ id: log[0].id, status: "PENDING", nextAttemptAt: at(3 * 24 * 60 * MIN) }]);
    await expect.poll(async () => (await deliveries(t, { eventId }))[0].status).toBe("DELIVERED");
    const after = (await deliveries(t, { eventId }))[0];
    expect(after.attempts.at(-1)).toMatchObject({ attemptNo: 8, statusCode: 204, error: null });
    expect(rcv.of(eventId)).toHaveLength(8);

    // A read key cannot redeliver; another tenant's event is not found, like an unknown one.
    const ro = await gql(`mutation($e: ID!) { redeliverEvent(eventId: $e) { id } }`, { e: eventId }, t.readKey);
    expect(ro.errors?.[0]?.extensions?.code).toBe("insufficient_scope");
    const other = await newTenant();
    const foreign = await gql(`mutation($e: ID!) { redeliverEvent(eventId: $e) { id } }`, { e: eventId }, other.writeKey);
    const unknown = await gql(`mutation($e: ID!) { redeliverEvent(eventId: $e) { id } }`, { e: newId("event") }, other.writeKey);
    expect(foreign.errors?.[0]?.extensions?.code).toBe("not_found");
    expect(JSON.stringify(foreign)).toBe(JSON.stringify(unknown));
  });

  it("retries another dispatcher is making when the clock stops are waited for and counted in webhookAttempts", { timeout: 30_000 }, async () => {
    const { t, rcv } = await tenantAnswered503();
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveries(t)).map((d) => d.nextAttemptAt)).toEqual([at(MIN), at(MIN)]);
    // Another instance's dispatcher claims both retries the moment the tenant's clock reaches them.
    const { runtime } = await testService();
    const prisma = runtime.db.prisma;
    // (Leased first, so this service's own dispatcher cannot take them before the "other" one does.)
    await prisma.webhookDelivery.updateMany({ where: { tenantId: t.tenantId }, data: { leaseUntil: new Date(Date.now() + 30_000) } });
    await prisma.tenant.update({ where: { id: t.tenantId }, data: { clockAt: new Date(at(MIN)) } });
    const claimed = await claimDueDeliveries(prisma, { limit: 10, now: new Date(Date.now() + 31_000), leaseMs: 30_000, perEndpoint: 10, tenantId: t.tenantId });
    expect(claimed).toHaveLength(2);
    const moving = op(`mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { webhookAttempts } }`, { t: t.tenantId, to: at(2 * MIN) });
    await new Promise((r) => setTimeout(r, 300));
    await storeOutcomes(runtime, await Promise.all(claimed.map((d) => attemptDelivery(d, runtime.wallClock))));
    expect((await moving).advanceClock.webhookAttempts).toBe(2);
    expect((await deliveries(t)).map((d) => [d.attemptCount, d.nextAttemptAt])).toEqual([[2, at(6 * MIN)], [2, at(6 * MIN)]]);
  });

  it("retries another dispatcher claims, makes and stores before advanceClock looks are counted, and the clock still stops at each", { timeout: 60_000 }, async () => {
    const { t, rcv } = await tenantAnswered503();
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveries(t)).map((d) => d.nextAttemptAt)).toEqual([at(MIN), at(MIN)]);
    // Another instance's dispatcher wins every retry: it runs to completion at each stop, just before
    // advanceClock's own delivery step (the sandbox chargebacks are the duty that runs right before it).
    const { runtime } = await testService();
    const sandbox = runtime.gateways.sandbox;
    const original = sandbox.dueChargebacks.bind(sandbox);
    let raced = 0;
    const racing = async (tenantId: string | null, now: Date, limit: number) => {
      if (tenantId === t.tenantId) {
        const claimed = await claimDueDeliveries(runtime.db.prisma, { limit: 10, now: new Date(), leaseMs: 30_000, perEndpoint: 10, tenantId });
        if (claimed.length > 0) await storeOutcomes(runtime, await Promise.all(claimed.map((d) => attemptDelivery(d, runtime.wallClock))));
        raced += claimed.length;
      }
      return original(tenantId, now, limit);
    };
    vi.spyOn(sandbox, "dueChargebacks").mockImplementation(racing as unknown as typeof original);
    const summary = await op(`mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { webhookAttempts } }`, {
      t: t.tenantId,
      to: at(3 * 24 * 60 * MIN),
    });
    // The racer made the retries (on PostgreSQL the service's own dispatcher may win a few first): none by advanceClock.
    expect(raced).toBeGreaterThan(0);
    expect(summary.advanceClock.webhookAttempts).toBe(12);
    const schedule = [0, 1, 6, 36, 156, 516, 1956].map((m) => at(m * MIN));
    for (const d of await deliveries(t)) {
      expect(d.status).toBe("EXHAUSTED");
      expect(d.attempts.map((a: any) => a.scheduledAt)).toEqual(schedule);
    }
    expect(rcv.requests).toHaveLength(14);
  });

  it("an outage loses nothing: refused connections are retried until the receiver is back", { timeout: 60_000 }, async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const rcv = await receiver();
    await addEndpoint(t, rcv.url);
    await rcv.down();
    await subscribe(t.monthlyOfferId);
    await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    await expect.poll(async () => (await deliveries(t)).map((d) => d.attemptCount)).toEqual([1, 1, 1, 1]);
    await advanceClock(t, at(6 * MIN)); // attempts 2 and 3 fail too
    let log = await deliveries(t);
    expect(log.every((d) => d.status === "PENDING" && d.attemptCount === 3)).toBe(true);
    expect(log[0].attempts[0].statusCode).toBeNull();
    expect(log[0].attempts[0].error).toBe("connection_refused");

    await rcv.up();
    await advanceClock(t, at(36 * MIN));
    log = await deliveries(t);
    expect(log.map((d) => d.status)).toEqual(["DELIVERED", "DELIVERED", "DELIVERED", "DELIVERED"]);
    const events = (await get(`/v1/events`, t.readKey)).body.results.map((e: any) => e.id);
    expect(events).toHaveLength(4);
    for (const id of events) expect(rcv.of(id)).toHaveLength(1);
  });

  it("a malformed endpoint URL fails fatally, with no retry", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    // The API refuses such URLs; this one predates the check (written straight to the table).
    const { runtime } = await testService();
    await runtime.db.prisma.webhookEndpoint.create({
      data: { id: newId("webhookEndpoint"), tenantId: t.tenantId, url: "http://exa mple.com:99999/hook", events: [], secret: "whsec_x" },
    });
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveries(t)).map((d) => d.status)).toEqual(["FAILED", "FAILED"]);
    await advanceClock(t, at(3 * 24 * 60 * MIN));
    const log = await deliveries(t);
    expect(log.map((d) => d.attemptCount)).toEqual([1, 1]);
    expect(log[0].attempts[0].error).toBe("invalid_url");
  });

  it("a receiver that hangs is cut at 10 s; another endpoint is served meanwhile", { timeout: 40_000 }, async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const hang = await receiver();
    hang.answer = () => "hang";
    const fine = await receiver();
    await addEndpoint(t, hang.url);
    await addEndpoint(t, fine.url);
    const started = Date.now();
    await subscribe(t.monthlyOfferId);
    await fine.waitFor((rs) => rs.length === 2, 3_000);
    expect(Date.now() - started).toBeLessThan(3_000);
    await hang.waitFor((rs) => rs.length === 2);
    await expect
      .poll(async () => (await deliveries(t)).filter((d) => d.endpoint && d.attemptCount === 1 && d.status === "PENDING").length, { timeout: 15_000 })
      .toBe(2);
    const cut = (await deliveries(t)).filter((d) => d.status === "PENDING");
    for (const d of cut) {
      expect(d.attempts[0].error).toBe("timeout");
      expect(d.attempts[0].statusCode).toBeNull();
      expect(d.nextAttemptAt).toBe(at(MIN));
    }
  });
});

// The machine's own name resolves to a loopback address through /etc/hosts: the connect-time lookup
// must refuse it although the name itself looks public.
const hostname = os.hostname();
const hostnameIsPrivate = await dns.promises
  .lookup(hostname)
  .then((a) => isPrivateHost(a.address) && !isPrivateHost(hostname))
  .catch(() => false);

describe("SSRF guard at send time (LIVE tenants)", () => {
  it.skipIf(!hostnameIsPrivate).each([[hostname]])("refuses a public-looking name that resolves inside (%s)", async (host) => {
    await expectRefused(host);
  });

  it.each([["127.0.0.1"], ["localhost"]])("never connects to a private address (%s), even for an endpoint that predates the check", async (host) => {
    await expectRefused(host);
  });
});

async function expectRefused(host: string): Promise<void> {
  {
    const t = await newTenant({ mode: "LIVE" });
    const rcv = await receiver();
    const { runtime } = await testService();
    await runtime.db.prisma.webhookEndpoint.create({
      data: { id: newId("webhookEndpoint"), tenantId: t.tenantId, url: rcv.url.replace("127.0.0.1", host), events: [], secret: "whsec_x" },
    });
    await subscribe(t.monthlyOfferId);
    await expect.poll(async () => (await deliveries(t)).map((d) => d.attemptCount)).toEqual([1, 1]);
    const log = await deliveries(t);
    expect(log[0].attempts[0].error).toBe("address_not_allowed");
    expect(log[0].status).toBe("PENDING"); // retried later (DNS may change), never delivered to the inside
    expect(rcv.requests).toHaveLength(0);
  }
}

describe("receiver answers", () => {
  it("a 2xx with a huge, endless body counts as delivered; the body is cut off and nothing else suffers", { timeout: 30_000 }, async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    let served = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      served++;
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = setInterval(() => (res.destroyed ? clearInterval(pump) : res.write(chunk)), 1); // ~64 MB/s, never ends
      res.on("close", () => clearInterval(pump));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      await addEndpoint(t, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
      await subscribe(t.monthlyOfferId);
      await expect.poll(async () => (await deliveries(t)).map((d) => `${d.status}:${d.lastStatusCode}`)).toEqual(["DELIVERED:200", "DELIVERED:200"]);
      await subscribe(t.monthlyOfferId); // the same endpoint still works
      await expect.poll(async () => (await deliveries(t)).filter((d) => d.status === "DELIVERED").length).toBe(4);
      expect(served).toBe(4);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
