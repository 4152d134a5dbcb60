// /graphql once reflected any Origin with credentials (Yoga's default CORS). Now no
// CORS headers at all by default, and an allow-list from GRAPHQL_CORS_ORIGINS, without credentials.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../core/shared/logger.ts";
import { buildService } from "../../server/service.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { graphqlRequest, type RawAnswer } from "./graphql-http.ts";

const corsHeaders = (r: RawAnswer) => Object.fromEntries(Object.entries(r.headers).filter(([k]) => k.startsWith("access-control-")));
const query = { query: "{ viewer { kind } }" };

describe("CORS on /graphql", () => {
  it("sends no CORS headers by default, to a request or a preflight from any origin", async () => {
    const svc = await testService();
    expect(process.env.GRAPHQL_CORS_ORIGINS ?? "").toBe("");
    for (const origin of ["https://evil.example", "null", svc.baseUrl]) {
      const r = await graphqlRequest({ body: query, token: ADMIN_TOKEN, headers: { origin } });
      expect({ origin, cors: corsHeaders(r) }).toEqual({ origin, cors: {} });
      const preflight = await graphqlRequest({ method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
      expect({ origin, cors: corsHeaders(preflight) }).toEqual({ origin, cors: {} });
    }
  });

  it("allows exactly the origins listed in GRAPHQL_CORS_ORIGINS, never with credentials", async () => {
    const { runtime } = await testService();
    const before = process.env.GRAPHQL_CORS_ORIGINS;
    process.env.GRAPHQL_CORS_ORIGINS = " https://tools.example.com, https://admin.example.com/ ";
    let server: Server | undefined;
    try {
      const other = await buildService(runtime.db, createLogger("silent"), runtime.config);
      server = other.app.listen(0, "127.0.0.1");
      await new Promise<void>((resolve) => server!.once("listening", () => resolve()));
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

      for (const origin of ["https://tools.example.com", "https://admin.example.com"]) {
        const r = await graphqlRequest({ baseUrl, body: query, token: ADMIN_TOKEN, headers: { origin } });
        expect(r.body).toEqual({ data: { viewer: { kind: "operator" } } });
        expect(r.headers["access-control-allow-origin"]).toBe(origin);
        expect(r.headers["access-control-allow-credentials"]).toBeUndefined();
        expect(r.headers.vary).toMatch(/Origin/i);
        const preflight = await graphqlRequest({ baseUrl, method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
        expect(preflight.status).toBe(204);
        expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
        expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toContain("authorization");
        expect(preflight.headers["access-control-allow-credentials"]).toBeUndefined();
      }
      for (const origin of ["https://evil.example", "https://tools.example.com.evil.example", "http://tools.example.com", "null"]) {
        const r = await graphqlRequest({ baseUrl, body: query, token: ADMIN_TOKEN, headers: { origin } });
        expect({ origin, cors: corsHeaders(r) }).toEqual({ origin, cors: {} });
      }
    } finally {
      if (before === undefined) delete process.env.GRAPHQL_CORS_ORIGINS;
      else process.env.GRAPHQL_CORS_ORIGINS = before;
      await new Promise((resolve) => server?.close(resolve));
    }
  });
});
