// The panel's team and sign-in over HTTP: invitation, password, session cookie, CSRF, limits, sign out.
import { describe, expect, it } from "vitest";
import express from "express";
import type { AddressInfo } from "node:net";
import { gql } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { invite, newMember, PanelBrowser, PASSWORD, signIn, uniqueEmail } from "../helpers/panel.ts";
import { panelRouter } from "../../web/panel/panel-router.ts";
import { createCoreClient } from "../../rest-facade/core-client.ts";
import { inProcessFetch } from "../../schema/in-process-entry.ts";

describe("panel sign-in", () => {
  it("an invited member sets a password, signs in and sees who and which tenant", async () => {
    const t = await newTenant();
    const email = uniqueEmail("Dev");
    const path = await invite(t.tenantId, email, "DEVELOPER");
    const b = await PanelBrowser.open();
    const page = await b.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain(email.toLowerCase());
    const accepted = await b.submit(path, path, { password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.html).toContain("Conta criada");

    const member = await signIn(email, PASSWORD);
    const home = await member.get("/panel/");
    expect(home.status).toBe(200);
    expect(home.html).toContain(email.toLowerCase());
    expect(home.html).toContain(t.tenantId);
    expect(home.html).toContain("Desenvolvedor");
    expect(home.setCookies).toEqual([]);
  });

  it("the session cookie is HttpOnly, SameSite=Lax, scoped to /panel, Secure behind HTTPS, and holds no stored value", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const plain = await PanelBrowser.open();
    const answer = await plain.submit("/panel/login", "/panel/login", { email: m.email, password: m.password });
    const cookie = answer.setCookies.find((c) => c.startsWith("panel_session="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/panel/);
    expect(cookie).not.toMatch(/Secure/i);
    const token = plain.jar.get("panel_session")!;
    const { runtime } = await testService();
    expect(await runtime.db.prisma.panelSession.count({ where: { hash: token } })).toBe(0); // only its SHA-256 is kept

    const https = await PanelBrowser.open({ "x-forwarded-proto": "https" });
    const secure = await https.submit("/panel/login", "/panel/login", { email: m.email, password: m.password });
    expect(secure.setCookies.find((c) => c.startsWith("panel_session="))).toMatch(/Secure/i);
  });

  it("a wrong password is refused with a clear page and no session", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const b = await PanelBrowser.open();
    const answer = await b.submit("/panel/login", "/panel/login", { email: m.email, password: "not-the-password-at-all" });
    expect(answer.status).toBe(401);
    expect(answer.html).toContain("e-mail ou senha incorretos");
    expect(answer.html).toContain(`value="${m.email}"`);
    expect(b.jar.has("panel_session")).toBe(false);
    const unknown = await b.submit("/panel/login", "/panel/login", { email: uniqueEmail("nobody"), password: PASSWORD });
    expect(unknown.status).toBe(401);
    expect(unknown.html).toContain("e-mail ou senha incorretos");
  });

  it("a used invitation and an expired one are refused", async () => {
    const t = await newTenant();
    const email = uniqueEmail();
    const path = await invite(t.tenantId, email);
    const b = await PanelBrowser.open();
    expect((await b.submit(path, path, { password: PASSWORD })).status).toBe(200);
    const again = await b.request("POST", path, { csrf: (await b.get("/panel/login")).html.match(/name="csrf" value="([^"]+)"/)![1]!, password: "outra-senha-bem-longa-99" });
    expect(again.status).toBe(410);
    expect(again.html).toContain("expirou ou já foi utilizado");
    expect((await b.get(path)).status).toBe(410);

    const later = await invite(t.tenantId, uniqueEmail());
    const { runtime } = await testService();
    await runtime.db.prisma.teamLink.updateMany({ where: { tenantId: t.tenantId, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await b.get(later)).status).toBe(410);
    expect((await b.request("POST", later, { csrf: (await b.get("/panel/login")).html.match(/name="csrf" value="([^"]+)"/)![1]!, password: PASSWORD })).status).toBe(410);
  });

  it("a weak password is refused on the invitation form, which stays usable", async () => {
    const t = await newTenant();
    const path = await invite(t.tenantId, uniqueEmail());
    const b = await PanelBrowser.open();
    const weak = await b.submit(path, path, { password: "senha123" });
    expect(weak.status).toBe(422);
    expect(weak.html).toContain("12 caracteres");
    expect((await b.submit(path, path, { password: PASSWORD })).status).toBe(200);
  });

  it("a POST without the CSRF token, or with another session's, is refused", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const b = await PanelBrowser.open();
    await b.get("/panel/login");
    const bare = await b.request("POST", "/panel/login", { email: m.email, password: m.password });
    expect(bare.status).toBe(403);
    expect(bare.html).toContain("Envio recusado");
    expect(b.jar.has("panel_session")).toBe(false);

    const one = await signIn(m.email, m.password);
    const two = await signIn(m.email, m.password);
    const twoCsrf = (await two.get("/panel/sessions")).html.match(/name="csrf" value="([^"]+)"/)![1]!;
    const forged = await one.request("POST", "/panel/sessions/sign-out-everywhere", { csrf: twoCsrf });
    expect(forged.status).toBe(403);
    const missing = await one.request("POST", "/panel/logout", {});
    expect(missing.status).toBe(403);
    expect((await one.get("/panel/")).status).toBe(200);
  });

  it("signing out ends this session; signing out everywhere ends the others too", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const a = await signIn(m.email, m.password);
    const b = await signIn(m.email, m.password);
    const c = await signIn(m.email, m.password);
    const list = await a.get("/panel/sessions");
    expect(list.status).toBe(200);
    expect(list.html.match(/<li>/g)?.length).toBe(3);
    expect(list.html).toContain("Esta sessão");

    const out = await c.submit("/panel/", "/panel/logout", {});
    expect(out.status).toBe(303);
    expect((await c.get("/panel/")).location).toBe("/panel/login");

    const everywhere = await a.submit("/panel/sessions", "/panel/sessions/sign-out-everywhere", {});
    expect(everywhere.status).toBe(303);
    expect(everywhere.location).toBe("/panel/login");
    const other = await b.get("/panel/");
    expect(other.status).toBe(303);
    expect(other.location).toBe("/panel/login");
  });

  it("five wrong passwords lock the account for a while, even for the right password", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const b = await PanelBrowser.open();
    for (let i = 0; i < 5; i++) expect((await b.submit("/panel/login", "/panel/login", { email: m.email, password: `errada-${i}-xxxxxxxx` })).status).toBe(401);
    const locked = await b.submit("/panel/login", "/panel/login", { email: m.email, password: m.password });
    expect(locked.status).toBe(429);
    expect(locked.html).toContain("muitas tentativas");
    expect(b.jar.has("panel_session")).toBe(false);
  });

  it("failed sign-ins are limited per address", async () => {
    const service = await testService();
    const app = express();
    app.use(panelRouter({ core: createCoreClient({ inProcess: inProcessFetch(service.yoga, service.runtime) }), publicUrl: "http://localhost", signInAttemptsPerMinute: 3 }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    try {
      const b = new PanelBrowser(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      // Different accounts: the per-account lock is not what stops this.
      for (let i = 0; i < 3; i++) expect((await b.submit("/panel/login", "/panel/login", { email: uniqueEmail("spray"), password: "qualquer-senha-longa" })).status).toBe(401);
      const limited = await b.submit("/panel/login", "/panel/login", { email: uniqueEmail("spray"), password: "qualquer-senha-longa" });
      expect(limited.status).toBe(429);
      expect(limited.html).toContain("Muitas tentativas");
    } finally {
      server.close();
    }
  });

  it("a session token is no credential outside the panel, and a member sees only their own tenant", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const m = await newMember(a.tenantId, "OWNER");
    const browser = await signIn(m.email, m.password);
    const token = browser.jar.get("panel_session")!;
    const direct = await gql(`{ viewer { kind tenantId } }`, {}, token);
    expect(direct.status).toBe(401);
    // The operator's invitation to tenant B, opened by A's member: it makes a B account, not access to B for A's session.
    const pathB = await invite(b.tenantId, m.email, "VIEWER");
    expect((await browser.submit(pathB, pathB, { password: "outra-senha-para-b-1234" })).status).toBe(200);
    const home = await browser.get("/panel/");
    expect(home.html).toContain(a.tenantId);
    expect(home.html).not.toContain(b.tenantId);
    // B's account signs in with its own password only, into B.
    const intoB = await signIn(m.email, "outra-senha-para-b-1234");
    const homeB = await intoB.get("/panel/");
    expect(homeB.html).toContain(b.tenantId);
    expect(homeB.html).toContain("Leitura");
  });

  it("a session ends when idle too long and at its absolute expiry", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const idle = await signIn(m.email, m.password);
    const absolute = await signIn(m.email, m.password);
    const { runtime } = await testService();
    const { createHash } = await import("node:crypto");
    const hashOf = (b: PanelBrowser) => createHash("sha256").update(b.jar.get("panel_session")!).digest("hex");
    await runtime.db.prisma.panelSession.update({ where: { hash: hashOf(idle) }, data: { lastSeenAt: new Date(Date.now() - 3 * 60 * 60_000) } });
    await runtime.db.prisma.panelSession.update({ where: { hash: hashOf(absolute) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const b of [idle, absolute]) {
      const home = await b.get("/panel/");
      expect(home.status).toBe(303);
      expect(home.location).toBe("/panel/login");
      expect(b.jar.has("panel_session")).toBe(false);
    }
  });

  it("a session cookie planted before sign-in is replaced by a new one (no session fixation)", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const b = await PanelBrowser.open();
    const planted = `ps_${"A".repeat(43)}`;
    b.jar.set("panel_session", planted);
    const login = await b.get("/panel/login");
    expect(login.status).toBe(303); // a cookie that looks like a session goes to the home page first...
    expect((await b.get("/panel/")).location).toBe("/panel/login"); // ...which refuses it and clears it
    expect(b.jar.has("panel_session")).toBe(false);
    const answer = await b.submit("/panel/login", "/panel/login", { email: m.email, password: m.password });
    expect(answer.location).toBe("/panel/");
    expect(b.jar.get("panel_session")).not.toBe(planted);
    expect(b.jar.get("panel_session")).toMatch(/^ps_[0-9A-Za-z]{43}$/);
  });
});
