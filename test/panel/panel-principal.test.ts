// The panel's principals in the GraphQL core: the panel before sign-in reaches only the sign-in
// operations; a member acts on their own tenant with the scopes of their role; neither can be claimed
// over HTTP by anyone but the panel. Plus the panel's page headers.
import { describe, expect, it } from "vitest";
import { createCoreClient } from "../../rest-facade/core-client.ts";
import { inProcessFetch } from "../../schema/in-process-entry.ts";
import { HttpError } from "../../http/error-map.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { newMember, PanelBrowser, signIn } from "../helpers/panel.ts";
import { op } from "../helpers/http.ts";

async function asPanel(document: string, variables: Record<string, unknown> = {}, token?: string): Promise<{ data?: unknown; code?: string }> {
  const { yoga, runtime } = await testService();
  const core = createCoreClient({ inProcess: inProcessFetch(yoga, runtime) });
  try {
    const data = await core.request(document, variables, token ? { authorization: `Bearer ${token}` } : {}, { panel: { address: "127.0.0.9", userAgent: "test" } });
    return { data };
  } catch (e) {
    if (e instanceof HttpError) return { code: String(e.body.code) };
    throw e;
  }
}

describe("panel principals", () => {
  it("before sign-in, the panel reaches the sign-in operations and nothing else", async () => {
    const t = await newTenant();
    expect((await asPanel(`{ viewer { kind } }`)).data).toEqual({ viewer: { kind: "panel" } });
    expect((await asPanel(`{ tenants { id } }`)).code).toBe("operator_only");
    expect((await asPanel(`{ tenant(id: "${t.tenantId}") { id } }`)).data).toEqual({ tenant: null });
    expect((await asPanel(`mutation { createApiKey(tenantId: "${t.tenantId}", scope: WRITE) { key } }`)).code).toBe("operator_only");
    expect((await asPanel(`{ me { id } }`)).code).toBe("insufficient_scope");
    expect((await asPanel(`mutation { signIn(email: "x@example.com", password: "y") { token } }`)).code).toBe("invalid_credentials");
  });

  it("a member acts on their own tenant with their role's scopes", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const viewer = await newMember(a.tenantId, "VIEWER");
    const token = (await signIn(viewer.email, viewer.password)).jar.get("panel_session")!;
    expect((await asPanel(`{ viewer { kind tenantId scope } }`, {}, token)).data).toEqual({ viewer: { kind: "tenant", tenantId: a.tenantId, scope: "READ" } });
    expect((await asPanel(`{ tenant(id: "${b.tenantId}") { id } }`, {}, token)).data).toEqual({ tenant: null });
    expect((await asPanel(`mutation { setTwoFactorRequired(required: false) }`, {}, token)).code).toBe("role_forbidden");
    expect((await asPanel(`mutation { inviteTenantUser(tenantId: "${a.tenantId}", email: "z@example.com", role: OWNER) { url } }`, {}, token)).code).toBe("operator_only");
    expect((await asPanel(`mutation { signIn(email: "x@example.com", password: "y") { token } }`, {}, token)).code).toBe("insufficient_scope");
    const dev = await newMember(a.tenantId, "DEVELOPER");
    const devToken = (await signIn(dev.email, dev.password)).jar.get("panel_session")!;
    expect((await asPanel(`{ viewer { scope } }`, {}, devToken)).data).toEqual({ viewer: { scope: "WRITE" } });
  });

  it("over HTTP, extensions.panel is not believed without the facade secret", async () => {
    const { baseUrl } = await testService();
    const res = await fetch(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `mutation { signIn(email: "x@example.com", password: "y") { token } }`, extensions: { panel: { address: "1.2.3.4", userAgent: "x" } } }),
    });
    expect(res.status).toBe(401);
  });

  it("panel pages forbid framing and scripts from elsewhere, and are not cached", async () => {
    const b = await PanelBrowser.open();
    const res = await fetch(`${b.baseUrl}/panel/login`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toContain('lang="pt-BR"');
    expect((await b.get("/panel/")).location).toBe("/panel/login");
  });

  it("a tenant's name is shown escaped", async () => {
    const { createTenant } = await op(`mutation($n: String!) { createTenant(name: $n, mode: SANDBOX) { id } }`, { n: `<img src=x onerror=alert(1)>"'` });
    const m = await newMember(createTenant.id, "OWNER");
    const home = await (await signIn(m.email, m.password)).get("/panel/");
    expect(home.status).toBe(200);
    expect(home.html).not.toContain("<img src=x");
    expect(home.html).toContain("&lt;img src=x onerror=alert(1)>");
  });
});
