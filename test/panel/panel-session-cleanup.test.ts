// The hourly clean-up job: sessions and team links that ended more than a week ago are deleted; a live
// session, one that ended recently and an open invitation stay.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { JOBS } from "../../jobs/scheduler.ts";
import { newTenant } from "../helpers/tenant.ts";
import { invite, newMember, signIn, uniqueEmail, type PanelBrowser } from "../helpers/panel.ts";
import { testService } from "../helpers/service.ts";

const DAY = 24 * 60 * 60_000;
const hashOf = (b: PanelBrowser) => createHash("sha256").update(b.jar.get("panel_session")!).digest("hex");

describe("panel session clean-up job", () => {
  it("deletes sessions and links that ended over a week ago, keeps the rest", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const [live, signedOutLongAgo, idleLongAgo, signedOutToday] = [await signIn(m.email, m.password), await signIn(m.email, m.password), await signIn(m.email, m.password), await signIn(m.email, m.password)];
    const { runtime } = await testService();
    const sessions = runtime.db.prisma.panelSession;
    const now = Date.now();
    await sessions.update({ where: { hash: hashOf(signedOutLongAgo) }, data: { revokedAt: new Date(now - 8 * DAY) } });
    await sessions.update({ where: { hash: hashOf(idleLongAgo) }, data: { lastSeenAt: new Date(now - 9 * DAY) } });
    await sessions.update({ where: { hash: hashOf(signedOutToday) }, data: { revokedAt: new Date(now - 60_000) } });
    const oldEmail = uniqueEmail("old");
    await invite(t.tenantId, oldEmail);
    const openEmail = uniqueEmail("open");
    await invite(t.tenantId, openEmail);
    await runtime.db.prisma.teamLink.updateMany({ where: { tenantId: t.tenantId, email: oldEmail }, data: { expiresAt: new Date(now - 8 * DAY) } });

    const job = JOBS.find((j) => j.name === "expire-panel-sessions")!;
    const done = (await job.run(runtime)) as { sessions: number; links: number };
    expect(done.sessions).toBeGreaterThanOrEqual(2);
    expect(done.links).toBeGreaterThanOrEqual(1);

    const left = await sessions.findMany({ where: { tenantId: t.tenantId }, select: { hash: true } });
    expect(left.map((s) => s.hash).sort()).toEqual([hashOf(live), hashOf(signedOutToday)].sort());
    const links = await runtime.db.prisma.teamLink.findMany({ where: { tenantId: t.tenantId }, select: { email: true } });
    expect(links.map((l) => l.email)).not.toContain(oldEmail);
    expect(links.map((l) => l.email)).toContain(openEmail);
    expect((await live.get("/panel/")).status).toBe(200);
  });
});
