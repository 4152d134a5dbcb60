// /metrics is an operator's view: a bounded set of series (route templates, never raw paths or ids,
// however many random paths arrive), read only by the bearer of METRICS_TOKEN on the public listener
// or on a listener of its own bound to 127.0.0.1 (METRICS_PORT); with neither, nobody reads it.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../core/shared/logger.ts";
import { createFacadeApp } from "../../server/facade-process.ts";
import { buildService } from "../../server/service.ts";
import { CHILD_METRICS_TOKEN, freePort, startChildService, startMainUntilBanner } from "../helpers/child-service.ts";
import { FACADE_SECRET, TEST_METRICS_TOKEN, metricsText, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { sendFrom } from "../security/hosted-client.ts";

const rnd = () => randomBytes(6).toString("hex");

/** Series of http_requests_total and http_request_duration_seconds_count: `name{labels}`. */
function requestSeries(text: string): Set<string> {
  return new Set(text.split("\n").filter((l) => /^http_request(s_total|_duration_seconds_count)\{/.test(l)).map((l) => l.replace(/ \S+$/, "")));
}
const routeLabels = (series: Set<string>) => new Set([...series].map((s) => /route="([^"]*)"/.exec(s)![1]!));

describe("/metrics series stay bounded", () => {
  it("random paths, gateway account ids, /v1 ids, offer ids and tokens add no series and no raw id", async () => {
    const { baseUrl } = await testService();
    const t = await newTenant();
    const sent: string[] = [];
    // Its own loopback address: the gateway notices' refusal budget is per address, and the suite shares one service.
    const from = "127.0.0.91";
    const round = async () => {
      const ids = { gwa: `gwa_${rnd()}`, sub: `sub_${rnd()}`, off: `off_${rnd()}`, tok: rnd(), pay: `pay_${rnd()}`, path: rnd(), asset: rnd() };
      sent.push(...Object.values(ids));
      await sendFrom(from, baseUrl, `/gateways/${ids.gwa}/webhooks`, "{}", { "content-type": "application/json" });
      await fetch(`${baseUrl}/v1/subscriptions/${ids.sub}`, { headers: { authorization: `Bearer ${t.readKey}` } });
      await fetch(`${baseUrl}/v1/${ids.path}/${ids.sub}`, { headers: { authorization: `Bearer ${t.readKey}` } });
      await fetch(`${baseUrl}/checkout/${ids.off}`);
      await sendFrom(from, baseUrl, `/checkout/${ids.off}`, "method=pix", { "content-type": "application/x-www-form-urlencoded" });
      await fetch(`${baseUrl}/pay/${ids.tok}`);
      await fetch(`${baseUrl}/pix/${ids.pay}/qr.png`);
      await fetch(`${baseUrl}/${ids.path}/${ids.tok}`);
      await fetch(`${baseUrl}/${ids.path}`, { method: "POST" });
      await fetch(`${baseUrl}/docs/assets/${ids.asset}.js`);
      await fetch(`${baseUrl}/graphql/${ids.path}`);
    };
    // Past the address's refusal budget, so its 429 series exists before the count.
    for (let i = 0; i < 35; i++) await sendFrom(from, baseUrl, `/gateways/gwa_${rnd()}/webhooks`, "{}", { "content-type": "application/json" });
    for (let i = 0; i < 3; i++) await round();
    await metricsText(); // its own series, counted once answered
    const before = requestSeries(await metricsText());
    for (let i = 0; i < 40; i++) await round();
    const text = await metricsText();
    const after = requestSeries(text);

    expect([...after].filter((s) => !before.has(s))).toEqual([]);
    const labels = routeLabels(after);
    for (const label of ["/gateways/:gatewayAccountId/webhooks", "/v1/subscriptions/:subscription_id", "/checkout/:offerId", "/pay/:token", "/pix/:paymentId/qr.png", "unmatched"]) {
      expect(labels, label).toContain(label);
    }
    expect(after.has('http_requests_total{method="POST",route="/gateways/:gatewayAccountId/webhooks",status="429"}')).toBe(true);
    for (const id of sent) expect(text, id).not.toContain(id);
    for (const label of labels) expect(label, label).not.toMatch(/gwa_|sub_|off_|pay_|cus_/);
  });
});

describe("who reads /metrics", () => {
  it("on the public listener, only the bearer of METRICS_TOKEN; without METRICS_TOKEN, nobody", async () => {
    const { baseUrl, runtime } = await testService();
    const none = await fetch(`${baseUrl}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: "unauthorized" });
    expect((await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${baseUrl}/metrics`, { headers: { authorization: "Bearer " } })).status).toBe(401);
    const ok = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("http_requests_total");

    // A service without METRICS_TOKEN serves no /metrics at all.
    const bare = await buildService(runtime.db, createLogger("silent"), runtime.config);
    const server = bare.app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    try {
      const port = (server.address() as { port: number }).port;
      const r = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({ code: "route_not_found" });
    } finally {
      server.close();
    }
  });

  it("the facade alone: the same rule", async () => {
    const core = await testService();
    for (const [metricsToken, want] of [
      [undefined, [404, 404]],
      [TEST_METRICS_TOKEN, [401, 200]],
    ] as const) {
      const app = createFacadeApp({ graphqlUrl: `${core.baseUrl}/graphql`, facadeSecret: FACADE_SECRET, logger: createLogger("silent"), metricsToken });
      const server = app.listen(0, "127.0.0.1");
      await new Promise<void>((resolve) => server.once("listening", () => resolve()));
      try {
        const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
        const anonymous = await fetch(`${base}/metrics`);
        const bearer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
        expect([anonymous.status, bearer.status]).toEqual(want);
      } finally {
        server.close();
      }
    }
  });

  it("METRICS_PORT: /metrics on 127.0.0.1 only, for the core (api and jobs roles) and the facade alone; a weak METRICS_TOKEN stops the start", async () => {
    const metricsPort = await freePort();
    const core = await startChildService({ databaseUrl: "", role: "api", env: { METRICS_TOKEN: "", METRICS_PORT: String(metricsPort) } });
    try {
      expect((await fetch(`${core.baseUrl}/metrics`, { headers: { authorization: `Bearer ${CHILD_METRICS_TOKEN}` } })).status).toBe(404);
      await fetch(`${core.baseUrl}/healthz`);
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(/^http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+$/m);
      expect(core.output()).toContain(`metrics:    http://127.0.0.1:${metricsPort}/metrics`);
    } finally {
      await core.stop();
    }

    // A jobs instance has no public listener; its billing and webhook counters are read there.
    const jobsMetricsPort = await freePort();
    const jobs = await startChildService({ databaseUrl: "", role: "jobs", env: { METRICS_TOKEN: "", METRICS_PORT: String(jobsMetricsPort) } });
    try {
      const scraped = await fetch(`http://127.0.0.1:${jobsMetricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("process_resident_memory_bytes");
    } finally {
      await jobs.stop();
    }

    const testCore = await testService();
    const facadeMetricsPort = await freePort();
    const facade = await startChildService({
      databaseUrl: "",
      role: "api",
      env: { GRAPHQL_URL: `${testCore.baseUrl}/graphql`, FACADE_SECRET, METRICS_TOKEN: "", METRICS_PORT: String(facadeMetricsPort) },
    });
    try {
      expect((await fetch(`${facade.baseUrl}/metrics`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${facadeMetricsPort}/metrics`)).status).toBe(200);
    } finally {
      await facade.stop();
    }

    const weak = await startMainUntilBanner({ METRICS_TOKEN: "metrics" });
    expect(weak.started).toBe(false);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/METRICS_TOKEN is too weak/);
  }, 180_000);
});
