import { describe, expect, it } from "vitest";
import { keyset, toPage } from "../../../core/shared/pagination.ts";

describe("keyset pagination", () => {
  it.each([[0], [501], [-3], [1.5], [Number.NaN]])("refuses limit %s", (limit) => {
    expect(() => keyset({ limit }, "subscription")).toThrow(expect.objectContaining({ key: "invalid_limit" }));
  });

  it.each([["x"], ["pay_01ARZ3NDEKTSV4RRFFQ69G5FAV"], ["sub_01ARZ3NDEKTSV4RRFFQ69G5FA"], ["sub_01ARZ3NDEKTSV4RRFFQ69G5FAU"]])("refuses cursor %s", (after) => {
    expect(() => keyset({ after }, "subscription")).toThrow(expect.objectContaining({ key: "invalid_cursor" }));
  });

  it("defaults to 100 and fetches one extra row to know about the next page", () => {
    expect(keyset({}, "subscription")).toEqual({ take: 101, afterId: undefined, limit: 100 });
    const rows = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect(toPage(rows, { take: 3, afterId: undefined, limit: 2 })).toEqual({ rows: rows.slice(0, 2), next: "b" });
    expect(toPage(rows.slice(0, 2), { take: 3, afterId: undefined, limit: 2 })).toEqual({ rows: rows.slice(0, 2), next: null });
  });
});
