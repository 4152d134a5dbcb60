// The real start (main.ts as a child process): an SMTP server that is down at start is a warning, not a
// crash (the service serves, and says so in its log); the banner names the e-mail mode (SMTP, or .eml
// files when SMTP_URL is unset); an SMTP_URL of another scheme is refused before anything starts.
import { describe, expect, it } from "vitest";
import { freePort, startChildService, startMainUntilBanner } from "../helpers/child-service.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("SMTP at start", () => {
  it("SMTP_URL at a closed port: the service starts and keeps serving, the banner says SMTP, the log warns", { timeout: 120_000 }, async () => {
    const port = await freePort(); // nothing listens there
    const child = await startChildService({ databaseUrl: "", role: "all", env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, readyTimeoutMs: 100_000 });
    try {
      expect(child.output()).toMatch(new RegExp(`e-mail: +SMTP smtp://127\\.0\\.0\\.1:${port}`));
      const deadline = Date.now() + 30_000;
      while (!child.output().includes("e-mail transport is not reachable yet") && Date.now() < deadline) await sleep(100);
      expect(child.output()).toContain("e-mail transport is not reachable yet");
      expect(child.output()).toMatch(/ECONNREFUSED/);
      // Still up after the warning (and after a send-emails tick or two).
      await sleep(6_000);
      expect(child.proc.exitCode).toBeNull();
      expect(child.proc.signalCode).toBeNull();
      expect((await fetch(`${child.baseUrl}/healthz`)).ok).toBe(true);
    } finally {
      await child.stop();
    }
  });

  it("SMTP_URL unset: the banner says the messages are written as .eml files under DATA_DIR/mail", { timeout: 120_000 }, async () => {
    const r = await startMainUntilBanner({ SMTP_URL: "" });
    expect(r.started).toBe(true);
    expect(r.stdout).toMatch(/e-mail: +written to \S+\/mail \(SMTP_URL unset\)/);
  });

  it("SMTP_URL of another scheme stops the start with a message", { timeout: 120_000 }, async () => {
    const r = await startMainUntilBanner({ SMTP_URL: "http://mail.example.com" });
    expect(r.started).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("refusing to start: SMTP_URL must be smtp:// or smtps://");
  });
});
