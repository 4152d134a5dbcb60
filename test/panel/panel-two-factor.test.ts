// Two-factor sign-in in the panel: TOTP set-up with a QR code, the code step, replay, recovery codes,
// and the owner's switch that requires it of the whole team.
import { describe, expect, it } from "vitest";
import { newTenant } from "../helpers/tenant.ts";
import { newMember, PanelBrowser, secretOf, signIn, totpNow } from "../helpers/panel.ts";

/** Turns two-factor on for a signed-in member: answers the secret and the recovery codes page. */
async function turnOn(b: PanelBrowser): Promise<{ secret: string; codes: string[]; used: string }> {
  const started = await b.submit("/panel/security", "/panel/security/two-factor/start", {});
  expect(started.status).toBe(303);
  const page = await b.get("/panel/security");
  expect(page.html).toMatch(/<img class="qr" src="data:image\/png;base64,/);
  expect(page.html).toContain("otpauth://totp/");
  const secret = secretOf(page.html);
  const wrong = await b.request("POST", "/panel/security/two-factor/confirm", { csrf: page.html.match(/name="csrf" value="([^"]+)"/)![1]!, code: "000000" });
  expect(wrong.status).toBe(422);
  expect(wrong.html).toContain("código de verificação inválido");
  const used = totpNow(secret);
  const confirmed = await b.submit("/panel/security", "/panel/security/two-factor/confirm", { code: used });
  expect(confirmed.status).toBe(200);
  const codes = [...confirmed.html.matchAll(/<code>([0-9a-z]{5}-[0-9a-z]{5})<\/code>/g)].map((m) => m[1]!);
  expect(codes).toHaveLength(10);
  return { secret, codes, used };
}

describe("panel two-factor", () => {
  it("turned on, sign-in asks for a code; a wrong or replayed code is refused; a recovery code works once", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const b = await signIn(m.email, m.password);
    const { secret, codes, used } = await turnOn(b);
    expect((await b.get("/panel/security")).html).toContain("Ativa:");
    expect((await b.get("/panel/security")).html).not.toContain(codes[0]!); // shown once

    const c = await PanelBrowser.open();
    const first = await c.submit("/panel/login", "/panel/login", { email: m.email, password: m.password });
    expect(first.status).toBe(303);
    expect(first.location).toBe("/panel/login");
    expect(c.jar.has("panel_session")).toBe(false);
    const codePage = await c.get("/panel/login");
    expect(codePage.html).toContain('name="code"');
    expect((await c.get("/panel/")).location).toBe("/panel/login"); // a pending sign-in opens nothing

    const wrong = await c.submit("/panel/login", "/panel/login", { code: "123456" === totpNow(secret) ? "654321" : "123456" });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain("código de verificação inválido");
    // The code that turned two-factor on cannot be used again (its 30-second step is spent).
    const replay = await c.submit("/panel/login", "/panel/login", { code: used });
    expect(replay.status).toBe(401);

    const recovery = await c.submit("/panel/login", "/panel/login", { code: codes[0]! });
    expect(recovery.status).toBe(303);
    expect(recovery.location).toBe("/panel/");
    expect((await c.get("/panel/")).status).toBe(200);

    const d = await PanelBrowser.open();
    await d.submit("/panel/login", "/panel/login", { email: m.email, password: m.password });
    expect((await d.submit("/panel/login", "/panel/login", { code: codes[0]! })).status).toBe(401);
    expect((await d.submit("/panel/login", "/panel/login", { code: codes[1]!.toUpperCase() })).location).toBe("/panel/");
  });

  it("the owner requires two-factor of the team: a member without it is sent to turn it on first", async () => {
    const t = await newTenant();
    const owner = await newMember(t.tenantId, "OWNER");
    const dev = await newMember(t.tenantId, "DEVELOPER");
    const o = await signIn(owner.email, owner.password);
    const early = await o.submit("/panel/security", "/panel/security/require-two-factor", { required: "on" });
    expect(early.status).toBe(409);
    expect(early.html).toContain("antes de exigi-la");
    const { secret } = await turnOn(o);
    const saved = await o.submit("/panel/security", "/panel/security/require-two-factor", { required: "on" });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain("Exigida");

    const d = await signIn(dev.email, dev.password);
    const home = await d.get("/panel/");
    expect(home.status).toBe(303);
    expect(home.location).toBe("/panel/security");
    expect((await d.get("/panel/security")).html).toContain("A sua equipe exige");
    // A developer cannot flip the owner's switch.
    const flip = await d.submit("/panel/security", "/panel/security/require-two-factor", { required: "off" });
    expect(flip.status).toBe(403);
    await turnOn(d);
    expect((await d.get("/panel/")).status).toBe(200);
    expect(secret).toMatch(/^[A-Z2-7]+$/);
  });
});
