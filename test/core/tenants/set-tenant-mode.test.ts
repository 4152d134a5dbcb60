// setTenantMode through GraphQL: LIVE is refused without legal name and CNPJ (seller_incomplete, the
// tenant unchanged) and with http links; once LIVE the pages drop the sandbox badge and the sandbox
// clock; back in SANDBOX the clock restarts at the wall clock's instant.
import { beforeAll, describe, expect, it } from "vitest";
import { call, gql, op } from "../../helpers/http.ts";
import { testService } from "../../helpers/service.ts";
import { newTenant } from "../../helpers/tenant.ts";

const SET = `mutation($t: ID!, $m: TenantMode!) { setTenantMode(tenantId: $t, mode: $m) { id mode } }`;
const PROFILE = `mutation($t: ID!, $i: TenantProfileInput!) { updateTenantProfile(tenantId: $t, input: $i) { id } }`;
const ADVANCE = `mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { __typename } }`;

async function tenantRow(id: string) {
  const { runtime } = await testService();
  return runtime.db.prisma.tenant.findUniqueOrThrow({ where: { id }, select: { mode: true, clockAt: true } });
}

beforeAll(async () => {
  await testService();
}, 180_000);

describe("setTenantMode", () => {
  it("refuses LIVE without legal name and CNPJ with seller_incomplete, and changes nothing", async () => {
    const t = await newTenant();
    const before = await tenantRow(t.tenantId);
    const bare = await gql(SET, { t: t.tenantId, m: "LIVE" });
    expect(bare.errors?.[0]?.extensions?.code).toBe("seller_incomplete");
    expect(bare.errors?.[0]?.message).toBe("a LIVE tenant needs legalName and cnpj in its profile (updateTenantProfile)");
    await op(PROFILE, { t: t.tenantId, i: { legalName: "Loja Teste Ltda." } });
    const noCnpj = await gql(SET, { t: t.tenantId, m: "LIVE" });
    expect(noCnpj.errors?.[0]?.extensions?.code).toBe("seller_incomplete");
    expect(await tenantRow(t.tenantId)).toEqual(before);
    // The checkout still sells as a sandbox.
    const page = await call("GET", `/checkout/${t.monthlyOfferId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Ambiente de testes");
  });

  it("refuses LIVE while the profile's links are http (a sandbox may use them, a LIVE shopper may not)", async () => {
    const t = await newTenant();
    await op(PROFILE, { t: t.tenantId, i: { legalName: "Loja Teste Ltda.", cnpj: "11222333000181", termsUrl: "http://localhost:3000/termos" } });
    const r = await gql(SET, { t: t.tenantId, m: "LIVE" });
    expect(r.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect(r.errors?.[0]?.message).toBe("termsUrl must be an https URL before the tenant goes LIVE");
    expect((await tenantRow(t.tenantId)).mode).toBe("SANDBOX");
  });

  it("goes LIVE with a complete profile: wall clock, no sandbox badge, no advanceClock; back to SANDBOX restarts the clock", async () => {
    const t = await newTenant();
    // A sandbox clock moved a year ahead must not follow the tenant into LIVE.
    const { runtime } = await testService();
    const ahead = new Date(runtime.wallClock.now().getTime() + 365 * 86_400_000);
    await op(ADVANCE, { t: t.tenantId, to: ahead.toISOString() });
    expect((await tenantRow(t.tenantId)).clockAt?.getTime()).toBe(ahead.getTime());
    await op(PROFILE, { t: t.tenantId, i: { legalName: "Loja Teste Ltda.", cnpj: "11.222.333/0001-81", termsUrl: "https://loja.example/termos" } });

    const { setTenantMode } = await op(SET, { t: t.tenantId, m: "LIVE" });
    expect(setTenantMode).toEqual({ id: t.tenantId, mode: "LIVE" });
    expect(await tenantRow(t.tenantId)).toEqual({ mode: "LIVE", clockAt: null });
    const page = await call("GET", `/checkout/${t.monthlyOfferId}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Ambiente de testes");
    expect(page.text).toContain("CNPJ 11.222.333/0001-81");
    const refused = await gql(ADVANCE, { t: t.tenantId, to: new Date(ahead.getTime() + 86_400_000).toISOString() });
    expect(refused.errors?.[0]?.extensions?.code).toBe("sandbox_only");
    // The same mode again is no change.
    expect((await op(SET, { t: t.tenantId, m: "LIVE" })).setTenantMode.mode).toBe("LIVE");

    const wallBefore = runtime.wallClock.now().getTime();
    expect((await op(SET, { t: t.tenantId, m: "SANDBOX" })).setTenantMode.mode).toBe("SANDBOX");
    const back = await tenantRow(t.tenantId);
    expect(back.clockAt!.getTime()).toBeGreaterThanOrEqual(wallBefore);
    expect(back.clockAt!.getTime()).toBeLessThan(ahead.getTime());
    expect((await call("GET", `/checkout/${t.monthlyOfferId}`)).text).toContain("Ambiente de testes");
  });

  it("answers not_found for an unknown tenant and refuses a tenant's own key", async () => {
    const missing = await gql(SET, { t: "tn_00000000000000000000000000", m: "LIVE" });
    expect(missing.errors?.[0]?.extensions?.code).toBe("not_found");
    const t = await newTenant();
    const own = await gql(SET, { t: t.tenantId, m: "LIVE" }, t.writeKey);
    expect(own.errors?.[0]?.extensions?.code).toBe("operator_only");
    expect((await tenantRow(t.tenantId)).mode).toBe("SANDBOX");
  });
});
