import { describe, expect, it } from "vitest";
import { mergeEntitlements } from "../../../core/entitlements/merge-entitlements.ts";

describe("mergeEntitlements", () => {
  it.each([
    [[], {}],
    [[{ a: true }, { a: false }], { a: true }],
    [[{ seats: 5 }, { seats: 50 }, { seats: 10 }], { seats: 50 }],
    [[{ tier: "pro" }, { tier: "basic" }], { tier: "basic" }],
    [[{ a: 1 }, { b: true }], { a: 1, b: true }],
  ])("merges %j into %j", (maps, expected) => {
    expect(mergeEntitlements(maps)).toEqual(expected);
  });
});
