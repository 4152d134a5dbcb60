// Issue 16 finding 2: a weak ADMIN_TOKEN (under 32 characters, or low entropy) is refused at start
// with a clear message on stderr and a non-zero exit; a strong one starts. `main.ts` is spawned as
// `npm start` runs it.
import { describe, expect, it } from "vitest";
import { startChildService, startMainUntilBanner } from "../helpers/child-service.ts";

describe("weak ADMIN_TOKEN refused at start (issue 16, finding 2)", () => {
  it.each([
    ["short", "short", /is 5 characters long; at least 32 are needed/],
    ["40 times the same character", "a".repeat(40), /carry about 0 bits \(1 distinct characters\)/],
    ["two characters alternating", "ab".repeat(20), /carry about 40 bits \(2 distinct characters\)/],
    ["a repeated block", "0123456789abcdef".repeat(2), /repeats a block of 16 characters/],
    ["a run of consecutive characters", "abcdefghijklmnopqrstuvwxyz0123456789", /mostly a run of consecutive characters/],
  ])("%s: exits non-zero with a clear message on stderr", { timeout: 120_000 }, async (_label, token, reason) => {
    const r = await startMainUntilBanner({ ADMIN_TOKEN: token });
    expect(r.started).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("refusing to start: ADMIN_TOKEN is too weak");
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toContain(token); // the refused token is not echoed
  });

  it("a strong token starts (the generated shape; the child services' own test token starts them in every drill)", { timeout: 180_000 }, async () => {
    const child = await startChildService({ databaseUrl: "", role: "api", env: { ADMIN_TOKEN: "adm_5pH7BkiIsTzjMzQLyKDnYAXZl1Cs29Us2z2WSRzV" } });
    try {
      expect((await fetch(`${child.baseUrl}/healthz`)).ok).toBe(true);
    } finally {
      await child.stop();
    }
  });
});
