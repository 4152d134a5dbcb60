// Debian's Chromium through playwright-core, as CI installs it. Tests that need it skip when absent.
import { existsSync } from "node:fs";
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
