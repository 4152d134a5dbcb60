// POST /demo/webhooks is unauthenticated by nature. It answers only while the
// demo tenant exists (before that it is the 404 of any unknown route), caps bodies at 64 kB (413),
// gives an address 30 refused posts a minute (429; verified deliveries never count), and a forged
// post costs no database query (the demo tenant's secrets are cached).
// A service of its own on an empty database: the shared one may hold a demo tenant seeded by
// another file, and this file needs the time before the seed.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedDemoTenant } from "../../core/demo/seed-demo-tenant.ts";
import { createLogger } from "../../core/shared/logger.ts";
import { openDb } from "../../prisma/client.ts";
import { buildService, type Service } from "../../server/service.ts";
import { scratchPgDatabase, type ScratchDb } from "../helpers/child-service.ts";
import { ADMIN_TOKEN } from "../helpers/service.ts";
import { sendFrom } from "./hosted-client.ts";

let svc: Service;
let server: Server;
let baseUrl: string;
let scratch: ScratchDb | null = null;

beforeAll(async () => {
  scratch = process.env.DATABASE_URL ? await scratchPgDatabase("demo_receiver") : null;
  const db = await openDb({ url: scratch?.url ?? "", pgliteDir: "memory://" });
  svc = await buildService(db, createLogger("silent"), { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" });
  server = svc.app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await svc?.runtime.db.close();
  await scratch?.drop();
});

const JSON_HEADERS = { "content-type": "application/json" };

function envelope(tenantId: string, pad = "") {
  return JSON.stringify({ id: "evt_demo", type: "invoice.paid", created_at: new Date().toISOString(), tenant_id: tenantId, data: { pad } });
}

function sign(secret: string, body: string) {
  const ts = Math.floor(Date.now() / 1000);
  return `ts=${ts},v1=${createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex")}`;
}

const forgedSignature = () => `ts=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`;

describe("/demo/webhooks", () => {
  it("is the 404 of an unknown route while there is no demo tenant", async () => {
    const body = envelope("tn_01ARZ3NDEKTSV4RRFFQ69G5FAV");
    const demo = await sendFrom("127.0.0.81", baseUrl, "/demo/webhooks", body, { ...JSON_HEADERS, "x-billing-signature": forgedSignature() });
    const unknown = await sendFrom("127.0.0.81", baseUrl, "/demo/nothing-here", body, { ...JSON_HEADERS, "x-billing-signature": forgedSignature() });
    expect(demo.status).toBe(404);
    expect(demo.json()).toEqual(unknown.json());
    expect(demo.json()).toEqual({ error: "route not found", code: "route_not_found" });
  });

  describe("once the demo tenant is seeded", () => {
    let demo: { tenantId: string; secret: string };
    beforeAll(async () => {
      const seeded = await seedDemoTenant(svc.runtime);
      const endpoint = await svc.runtime.db.prisma.webhookEndpoint.findFirstOrThrow({ where: { tenantId: seeded!.tenantId } });
      demo = { tenantId: seeded!.tenantId, secret: endpoint.secret };
    });

    it("answers at once: a signed delivery is 204, a forged one 400", async () => {
      const body = envelope(demo.tenantId);
      const ok = await sendFrom("127.0.0.82", baseUrl, "/demo/webhooks", body, { ...JSON_HEADERS, "x-billing-signature": sign(demo.secret, body) });
      expect(ok.status, ok.text).toBe(204);
      const forged = await sendFrom("127.0.0.82", baseUrl, "/demo/webhooks", body, { ...JSON_HEADERS, "x-billing-signature": forgedSignature() });
      expect(forged.status).toBe(400);
      expect(forged.json()).toEqual({ error: "signature does not verify" });
    });

    it("refuses a body over 64 kB with 413 before reading it", async () => {
      const near = envelope(demo.tenantId, "x".repeat(60 * 1024));
      const read = await sendFrom("127.0.0.83", baseUrl, "/demo/webhooks", near, { ...JSON_HEADERS, "x-billing-signature": sign(demo.secret, near) });
      expect(read.status).toBe(204);
      const big = envelope(demo.tenantId, "x".repeat(200 * 1024)); // read whole before (the cap was 1 MB)
      const refused = await sendFrom("127.0.0.83", baseUrl, "/demo/webhooks", big, { ...JSON_HEADERS, "x-billing-signature": forgedSignature() });
      expect(refused.status).toBe(413);
      expect(refused.json()).toEqual({ error: "the request body is too large", code: "payload_too_large" });
    });

    it("gives an address 30 refused posts a minute, then 429 with Retry-After; verified deliveries never count", async () => {
      const body = envelope(demo.tenantId);
      const forged = () => sendFrom("127.0.0.84", baseUrl, "/demo/webhooks", body, { ...JSON_HEADERS, "x-billing-signature": forgedSignature() });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await forged()).status);
      expect(statuses).toEqual(Array(30).fill(400));
      const limited = await forged();
      expect(limited.status).toBe(429);
      expect(limited.json().code).toBe("rate_limited");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      // Another address is not limited, and 40 verified deliveries from one address all pass.
      const delivered: number[] = [];
      for (let i = 0; i < 40; i++) {
        delivered.push((await sendFrom("127.0.0.85", baseUrl, "/demo/webhooks", body, { ...JSON_HEADERS, "x-billing-signature": sign(demo.secret, body) })).status);
      }
      expect(delivered).toEqual(Array(40).fill(204));
    });

    it("costs no database query per forged post (the demo tenant's secrets are cached)", async () => {
      const prisma = svc.runtime.db.prisma;
      const tenants = vi.spyOn(prisma.tenant, "findFirst");
      const endpoints = vi.spyOn(prisma.webhookEndpoint, "findMany");
      try {
        const body = envelope(demo.tenantId);
        for (let i = 0; i < 20; i++) {
          const r = await sendFrom("127.0.0.86", baseUrl, "/demo/webhooks", body, { ...JSON_HEADERS, "x-billing-signature": forgedSignature() });
          expect(r.status).toBe(400);
        }
        expect(tenants.mock.calls.length + endpoints.mock.calls.length).toBeLessThanOrEqual(2); // one refresh at most
      } finally {
        tenants.mockRestore();
        endpoints.mockRestore();
      }
    });
  });
});
