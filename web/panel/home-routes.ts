// The panel's first page after sign-in: what needs attention, and the last events.
import type { Router } from "express";
import { send, wrap, type PanelKit } from "./panel-kit.ts";
import { homePage, type Attention } from "./home-page.tsx";
import type { Member } from "./panel-layout.tsx";

export function homeRoutes(router: Router, kit: PanelKit): void {
  router.get(["/panel", "/panel/"], wrap(async (req, res) => {
    const s = await kit.signedIn<{ me: Member; attention: Attention }>(req, res, "panel-home");
    if (!s) return;
    send(res, 200, homePage({ member: s.me, csrf: s.csrf, attention: s.attention }));
  }));
}
