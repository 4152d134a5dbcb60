// Debian's Chromium through playwright-core, as CI installs it. Tests that need it skip when absent.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/** One headless browser for the calling describe block; the flags keep it off the network (closed here). */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}

/**
 * Runs `action` (a click that submits the page's form, at once or after a provider's script answers) and
 * waits until the page's next document has loaded. Only the top frame counts: the provider's card and
 * 3-D Secure frames navigate too, and their navigation is not the form's answer. Waiting for `load` (it
 * includes those frames) means the next step never races a frame that is still loading.
 */
export async function submitAndLoad(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent("framenavigated", { predicate: (f) => f === page.mainFrame() }), action()]);
  await page.waitForLoadState("load");
}

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export interface AxeViolation {
  id: string;
  help: string;
  /** The CSS targets of the offending nodes. */
  nodes: string[];
}

/**
 * axe-core's violations on the page as it stands. The script is injected into the page, which a
 * `script-src 'self'` CSP refuses: open such pages in a context with `bypassCSP: true`.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    // @ts-expect-error axe is injected into the page above
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return (r.violations as { id: string; help: string; nodes: { target: string[] }[] }[]).map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
}

/** Pixels the page scrolls sideways (0 when it fits its viewport). */
export const horizontalOverflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Named checks of the pages a test walks: axe violations and horizontal overflow, collected in
 * `violations`. axe is first shown a page with a real violation (an image without alt text), so a
 * blind axe fails the test instead of passing it.
 */
export async function pageChecker(page: Page): Promise<{ violations: string[]; check(name: string): Promise<void> }> {
  const violations: string[] = [];
  const check = async (name: string) => {
    violations.push(...(await axeViolations(page)).map((v) => `${name}: ${v.id} ${JSON.stringify(v.nodes)}`));
    const overflow = await horizontalOverflow(page);
    if (overflow > 0) violations.push(`${name}: ${overflow}px horizontal overflow`);
  };
  await page.setContent('<!doctype html><html lang="pt-BR"><head><title>x</title></head><body><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>', { waitUntil: "domcontentloaded" });
  await check("canary");
  if (!violations.some((v) => v.startsWith("canary: image-alt"))) throw new Error(`axe missed the canary's image without alt text: ${JSON.stringify(violations)}`);
  violations.length = 0;
  return { violations, check };
}
