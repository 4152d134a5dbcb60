// GraphiQL used to load its code from a CDN with no integrity check, and was a blank
// page offline. It now comes from the service's own assets under a CSP that allows this origin only,
// and works with no network (a real browser, when Debian's chromium is installed).
import { describe, expect, it } from "vitest";
import { hasChromium, useBrowser } from "../helpers/browser.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { graphqlRequest } from "./graphql-http.ts";


async function graphiqlPage() {
  return graphqlRequest({ method: "GET", headers: { accept: "text/html" } });
}

describe("GraphiQL page", () => {
  it("serves GraphiQL at GET /graphql with a CSP allowing scripts from this origin only, and references same-origin scripts and styles only", async () => {
    const page = await graphiqlPage();
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const csp = Object.fromEntries(String(page.headers["content-security-policy"]).split(/;\s*/).map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(csp["default-src"]).toEqual(["'none'"]);
    expect(csp["script-src"]).toEqual(["'self'"]);
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["worker-src"]).toEqual(["'self'"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");

    const html = page.text;
    expect(html).toContain("GraphiQL");
    expect(html).not.toMatch(/unpkg|jsdelivr|cdn\.|https?:\/\//i);
    // Every script is either an external same-origin file or an inert JSON block: nothing inline runs.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attrs: m[1]!, body: m[2]! }));
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(s.attrs)?.[1];
      if (src) {
        expect(src).toMatch(/^\/graphql\/assets\//);
        expect(s.body.trim()).toBe("");
      } else expect(s.attrs).toContain('type="application/json"');
    }
    const links = [...html.matchAll(/<link\b[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect(href).toMatch(/^\/graphql\/assets\//);
  });

  it("serves every asset the page and Monaco's workers need, with the right content type", async () => {
    const html = (await graphiqlPage()).text;
    const referenced = [...html.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    const base = referenced[0]!.replace(/[^/]*$/, "");
    const workers = ["editor.worker.js", "json.worker.js", "graphql.worker.js"].map((w) => base + w);
    for (const path of [...referenced, ...workers]) {
      const r = await graphqlRequest({ method: "GET", path });
      const type = path.endsWith(".css") ? /^text\/css/ : path.endsWith(".js") ? /^text\/javascript/ : /^image\//;
      expect({ path, status: r.status, type: r.headers["content-type"] }).toEqual({ path, status: 200, type: expect.stringMatching(type) });
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.text.length).toBeGreaterThan(0);
    }
    expect((await graphqlRequest({ method: "GET", path: `${base}../../etc/passwd` })).status).toBe(404);
    expect((await graphqlRequest({ method: "GET", path: `${base}nope.js` })).status).toBe(404);
  });

  it("answers a GET query from a client that does not ask for HTML as GraphQL, not with the page", async () => {
    const r = await graphqlRequest({ method: "GET", path: "/graphql?query=%7B%20viewer%20%7B%20kind%20%7D%20%7D", token: ADMIN_TOKEN });
    expect(r.body).toEqual({ data: { viewer: { kind: "operator" } } });
  });
});

describe.skipIf(!hasChromium)("GraphiQL in a browser with no network", () => {
  const browser = useBrowser();

  it("renders from the service alone (every other request refused) and runs { viewer { kind } } with the operator token", async () => {
    const { baseUrl } = await testService();
    const page = await browser().newPage();
    const offsite: string[] = [];
    const refused: string[] = [];
    // No network: anything not addressed to the service fails, as it would offline.
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(baseUrl) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      offsite.push(url);
      return route.abort("internetdisconnected");
    });
    page.on("console", (m) => void (/Content Security Policy|Refused to/i.test(m.text()) && refused.push(m.text())));
    page.on("pageerror", (e) => refused.push(`pageerror: ${e.message}`));

    expect((await page.goto(`${baseUrl}/graphql`))?.status()).toBe(200);
    await page.waitForSelector(".graphiql-container", { timeout: 20_000 });
    await page.getByText("Headers", { exact: true }).click();
    await page.locator(".graphiql-editor-tool .monaco-editor >> visible=true").first().click();
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${ADMIN_TOKEN}` }));
    await page.locator(".graphiql-query-editor .monaco-editor").first().click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("{ viewer { kind } }");
    // Monaco closes brackets as they are typed: drop whatever it added after the cursor.
    await page.keyboard.press("Shift+End");
    await page.keyboard.press("Delete");
    await page.getByRole("button", { name: /Execute query/ }).click();
    await page.waitForFunction(() => document.querySelector(".graphiql-response")?.textContent?.includes('"operator"'), null, { timeout: 15_000 });
    expect((await page.locator(".graphiql-response").textContent())?.replace(/\s+/g, "")).toContain('{"data":{"viewer":{"kind":"operator"}}}');
    expect(offsite).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  });
});
