// A weak ADMIN_TOKEN (under 32 characters, or low entropy) is refused at start
// with a clear message on stderr and a non-zero exit; a strong one starts. `main.ts` is spawned as
// `npm start` runs it.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { operatorTokenWeakness, prepareTokenEstimatesApart, randomBase62, tokenStrengthEstimate } from "../../core/shared/secrets.ts";
import { startChildService, startMainUntilBanner } from "../helpers/child-service.ts";

describe("weak ADMIN_TOKEN refused at start", () => {
  it.each([
    ["short", "short", /is 5 characters long; at least 32 are needed/],
    ["40 times the same character", "a".repeat(40), /carry about 0 bits \(1 distinct characters\)/],
    ["two characters alternating", "ab".repeat(20), /carry about 40 bits \(2 distinct characters\)/],
    ["a repeated block", "0123456789abcdef".repeat(2), /repeats a block of 16 characters/],
    ["a run of consecutive characters", "abcdefghijklmnopqrstuvwxyz0123456789", /mostly a run of consecutive characters/],
    ["a word repeated, then a digit", "adminadminadminadminadminadminadminadmin1", /zxcvbn\) guesses it in about 10\^5 tries \(repeat\); at least 10\^24 are needed/],
    ["a dictionary password, numbered", "Password1!Password2!Password3!Password4!", /zxcvbn\) guesses it in about 10\^23 tries \(dictionary\)/],
    ["a keyboard walk", "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik,9ol.", /zxcvbn\) guesses it in about 10\^19 tries \(dictionary, spatial\)/],
    ["a passphrase of dictionary words", "correct horse battery staple and more words", /zxcvbn\) reads 67 % of its characters as dictionary words/],
    ["a well-known sentence", "the quick brown fox jumps over the lazy dog", /zxcvbn\) reads 80 % of its letters and digits as dictionary words/],
    ["Portuguese words", "minhasenhasupersecretadobancodados", /zxcvbn\) guesses it in about 10\^20 tries \(dictionary\)/],
  ])("%s: exits non-zero with a clear message on stderr", { timeout: 120_000 }, async (_label, token, reason) => {
    const r = await startMainUntilBanner({ ADMIN_TOKEN: token });
    expect(r.started).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("refusing to start: ADMIN_TOKEN is too weak");
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toContain(token); // the refused token is not echoed
  });

  it("FACADE_SECRET gets the same estimate: a phrase of words is refused at start", { timeout: 120_000 }, async () => {
    const secret = "our facade secret for the billing service";
    const r = await startMainUntilBanner({ FACADE_SECRET: secret });
    expect({ started: r.started, code: r.code }).toEqual({ started: false, code: 1 });
    expect(r.stderr).toMatch(/refusing to start: FACADE_SECRET is too weak: a password-strength estimate \(zxcvbn\)/);
    expect(r.stderr).not.toContain(secret);
  });

  it("every generated or random token shape passes the estimate (unit): adm_ + 40 base62, fcd_ + base64url(24), 32 base62, 32 hex, base64(32)", { timeout: 120_000 }, () => {
    const shapes = [() => `adm_${randomBase62(40)}`, () => `fcd_${randomBytes(24).toString("base64url")}`, () => randomBase62(32), () => randomBytes(16).toString("hex"), () => randomBytes(32).toString("base64")];
    // A random hex token whose digit runs read as dates and repeats (69 % of it in patterns): not words.
    const refused: string[] = operatorTokenWeakness("7457485147666efc8ce46164e4e8a53d") ? ["7457485147666efc8ce46164e4e8a53d"] : [];
    for (const shape of shapes) for (let i = 0; i < 10; i++) {
      const token = shape();
      if (operatorTokenWeakness(token)) refused.push(`${token}: ${operatorTokenWeakness(token)}`);
    }
    expect(refused).toEqual([]);
  });

  it("the estimate made apart (in a process of its own, for the start-up tokens) equals the one made in process", { timeout: 120_000 }, () => {
    const tokens = ["Password1!Password2!Password3!Password4!", "the quick brown fox jumps over the lazy dog", `adm_${randomBase62(40)}`, "qwertyuiopasdfghjklzxcvbnm1234567890"];
    const inProcess = tokens.map((t) => [tokenStrengthEstimate(t), operatorTokenWeakness(t)]);
    prepareTokenEstimatesApart(tokens);
    expect(tokens.map((t) => [tokenStrengthEstimate(t), operatorTokenWeakness(t)])).toEqual(inProcess);
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
