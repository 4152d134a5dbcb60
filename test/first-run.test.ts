// `npm start` on a fresh data directory: migrations, demo seed, printed keys, and curl lines that work
// as printed. Then a restart keeps the data and does not seed twice.
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

function start(dataDir: string, port: number): Promise<{ banner: string; stop: () => Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" };
  delete env.DATABASE_URL; // the first run is about the embedded database
  delete env.ADMIN_TOKEN;
  const child = spawn(process.execPath, ["--import", "tsx", "main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      child.kill("SIGKILL"); // never leave a server behind a failed test
      reject(new Error(`no banner in 60 s:\n${out}`));
    }, 60_000);
    const poll = setInterval(() => {
      if (out.includes("  try:") || out.includes("the demo tenant exists")) {
        clearInterval(poll);
        clearTimeout(timer);
        setTimeout(() => resolve({ banner: out, stop }), 200);
      }
    }, 100);
    child.once("exit", (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`exited ${code}:\n${out}`));
    });
  });
}

describe("first run", () => {
  it("seeds a demo tenant and prints keys and curl lines that work", { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "billing-first-run-"));
    const port = 30_000 + Math.floor(Math.random() * 20_000);
    const first = await start(dataDir, port);
    try {
      expect(first.banner).toMatch(/write key: +bk_test_[0-9A-Za-z]{32}/);
      expect(first.banner).toMatch(/read key: +bk_test_[0-9A-Za-z]{32}/);
      expect(first.banner).toMatch(/operator token .*adm_/);
      expect(first.banner).toContain(`/checkout/offer_`);
      const checkoutUrl = /(http\S+\/checkout\/offer_\S+)/.exec(first.banner)![1]!;
      const page = await fetch(checkoutUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('name="card_number"');
      const curls = first.banner.split("\n").filter((l) => l.trim().startsWith("curl "));
      expect(curls).toHaveLength(3);
      for (const line of curls) {
        const args = ["-s", "-o", "/dev/null", "-w", "%{http_code}", ...shellWords(line.trim()).slice(1)];
        expect(execFileSync("curl", args, { encoding: "utf8" }), line).toBe("200");
      }
      const token = /operator token .*: (adm_\S+)/.exec(first.banner)![1]!;
      expect(fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim()).toBe(token);
      // The panel's owner: the printed e-mail and password sign in at the printed URL.
      const panel = /panel: +(http\S+\/panel\/login) +e-mail (\S+) +password \(shown once\): (\S+)/.exec(first.banner)!;
      expect(panel).not.toBeNull();
      const login = await fetch(panel[1]!);
      const pre = login.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
      const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())![1]!;
      const signedIn = await fetch(panel[1]!, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: pre, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, email: panel[2]!, password: panel[3]! }).toString(),
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get("location")).toBe("/panel/");
    } finally {
      await first.stop();
    }
    const second = await start(dataDir, port);
    await second.stop();
    expect(second.banner).toContain("the demo tenant exists");
    expect(second.banner).not.toMatch(/bk_test_[0-9A-Za-z]{32}/);
    expect(second.banner).not.toContain("password (shown once)");
  });
});

/** Splits a printed curl line the way a shell would (single quotes only, as the banner uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}
