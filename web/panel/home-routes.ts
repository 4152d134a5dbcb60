// The panel's first page after sign-in.
import type { Router } from "express";
import { send, wrap, type PanelKit } from "./panel-kit.ts";
import { homePage } from "./home-page.tsx";

export function homeRoutes(router: Router, kit: PanelKit): void {
  router.get(["/panel", "/panel/"], wrap(async (req, res) => {
    const s = await kit.signedIn(req, res);
    if (!s) return;
    send(res, 200, homePage({ member: s.me, csrf: s.csrf }));
  }));
}
