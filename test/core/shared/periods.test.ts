import { describe, expect, it } from "vitest";
import { addCycles, addMonthsKeepingAnchor, nextRetryAt, periodEnd, pixIssueAt, renewedPeriodEnd, retryInstants, trialEnd } from "../../../core/shared/periods.ts";

const d = (iso: string) => new Date(iso);
const iso = (x: Date | null) => x?.toISOString() ?? null;

describe("month arithmetic keeps the anchor day", () => {
  it.each([
    // from, months, anchor, expected
    ["2027-01-31T10:00:00.000Z", 1, 31, "2027-02-28T10:00:00.000Z"],
    ["2027-02-28T10:00:00.000Z", 1, 31, "2027-03-31T10:00:00.000Z"],
    ["2028-01-31T00:00:00.000Z", 1, 31, "2028-02-29T00:00:00.000Z"], // leap year
    ["2028-02-29T00:00:00.000Z", 1, 31, "2028-03-31T00:00:00.000Z"],
    ["2027-01-30T00:00:00.000Z", 1, 30, "2027-02-28T00:00:00.000Z"],
    ["2027-02-28T00:00:00.000Z", 1, 30, "2027-03-30T00:00:00.000Z"],
    ["2027-01-29T00:00:00.000Z", 1, 29, "2027-02-28T00:00:00.000Z"],
    ["2028-01-29T00:00:00.000Z", 1, 29, "2028-02-29T00:00:00.000Z"],
    ["2027-04-30T00:00:00.000Z", 1, 31, "2027-05-31T00:00:00.000Z"],
    ["2026-12-31T23:59:59.000Z", 1, 31, "2027-01-31T23:59:59.000Z"], // year end
    ["2026-12-15T00:00:00.000Z", 1, 15, "2027-01-15T00:00:00.000Z"],
    ["2027-11-30T00:00:00.000Z", 3, 30, "2028-02-29T00:00:00.000Z"],
    ["2027-03-31T00:00:00.000Z", -1, 31, "2027-02-28T00:00:00.000Z"],
  ])("%s + %i month(s), anchor %i = %s", (from, months, anchor, expected) => {
    expect(iso(addMonthsKeepingAnchor(d(from), months, anchor))).toBe(expected);
  });

  it("walks 13 monthly periods from Jan 31 without drifting", () => {
    const ends: string[] = [];
    let at = d("2027-01-31T12:00:00.000Z");
    for (let i = 0; i < 13; i++) {
      at = periodEnd(at, "MONTH", 31);
      ends.push(at.toISOString().slice(0, 10));
    }
    expect(ends).toEqual([
      "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30", "2027-07-31", "2027-08-31",
      "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31", "2028-01-31", "2028-02-29",
    ]);
  });

  it.each([
    ["2028-02-29T00:00:00.000Z", 29, "2029-02-28T00:00:00.000Z"],
    ["2029-02-28T00:00:00.000Z", 29, "2030-02-28T00:00:00.000Z"],
    ["2031-02-28T00:00:00.000Z", 29, "2032-02-29T00:00:00.000Z"],
    ["2026-12-31T00:00:00.000Z", 31, "2027-12-31T00:00:00.000Z"],
  ])("yearly from %s, anchor %i = %s", (from, anchor, expected) => {
    expect(iso(periodEnd(d(from), "YEAR", anchor))).toBe(expected);
  });
});

describe("dunning, Pix and trial instants", () => {
  it("retries at D+1, D+3, D+5 and D+9 of the due instant, then nothing", () => {
    const due = d("2027-12-30T09:00:00.000Z");
    expect(retryInstants(due).map(iso)).toEqual([
      "2027-12-31T09:00:00.000Z",
      "2028-01-02T09:00:00.000Z",
      "2028-01-04T09:00:00.000Z",
      "2028-01-08T09:00:00.000Z",
    ]);
    expect([1, 2, 3, 4, 5].map((n) => iso(nextRetryAt(due, n)))).toEqual([...retryInstants(due).map(iso), null]);
  });

  it("issues Pix 3 days before the due instant and ends trials after whole days", () => {
    expect(iso(pixIssueAt(d("2028-03-01T00:00:00.000Z")))).toBe("2028-02-27T00:00:00.000Z");
    expect(iso(trialEnd(d("2028-02-20T15:00:00.000Z"), 14))).toBe("2028-03-05T15:00:00.000Z");
  });
});

describe("addCycles (a campaign's bonus)", () => {
  it.each([
    ["2027-04-01T12:00:00.000Z", 1, "month", 1, "2027-05-01T12:00:00.000Z"],
    ["2027-01-31T00:00:00.000Z", 1, "month", 31, "2027-02-28T00:00:00.000Z"],
    ["2028-01-31T00:00:00.000Z", 1, "month", 31, "2028-02-29T00:00:00.000Z"],
    ["2027-02-28T00:00:00.000Z", 1, "month", 31, "2027-03-31T00:00:00.000Z"],
    ["2027-12-15T08:30:00.000Z", 2, "month", 15, "2028-02-15T08:30:00.000Z"],
    ["2028-02-29T00:00:00.000Z", 1, "year", 29, "2029-02-28T00:00:00.000Z"],
    ["2027-12-31T23:00:00.000Z", 10, "day", 31, "2028-01-10T23:00:00.000Z"],
    ["2027-04-01T12:00:00.000Z", 0, "year", 1, "2027-04-01T12:00:00.000Z"],
  ])("%s + %i %s (anchor %i) = %s", (from, cycles, unit, anchor, expected) => {
    expect(addCycles(new Date(from), cycles, unit, anchor).toISOString()).toBe(expected);
  });
});

describe("renewedPeriodEnd (a paid renewal order, announced by /pay)", () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    ["a month ahead", "2027-04-10T10:00:00.000Z", "MONTH", 10, 1, null, "2027-05-10T10:00:00.000Z"],
    ["day 31 into February", "2027-01-31T10:00:00.000Z", "MONTH", 31, 1, null, "2027-02-28T10:00:00.000Z"],
    ["day 31 into a leap February", "2028-01-31T10:00:00.000Z", "MONTH", 31, 1, null, "2028-02-29T10:00:00.000Z"],
    ["back to day 31 after February", "2027-02-28T10:00:00.000Z", "MONTH", 31, 1, null, "2027-03-31T10:00:00.000Z"],
    ["across the year", "2027-12-15T10:00:00.000Z", "MONTH", 15, 1, null, "2028-01-15T10:00:00.000Z"],
    ["February 29 a year ahead", "2028-02-29T10:00:00.000Z", "YEAR", 29, 1, null, "2029-02-28T10:00:00.000Z"],
    ["two cycles", "2027-04-10T10:00:00.000Z", "MONTH", 10, 2, null, "2027-06-10T10:00:00.000Z"],
    ["a month of bonus", "2027-04-30T10:00:00.000Z", "MONTH", 31, 1, { cycles: 1, unit: "month" }, "2027-06-30T10:00:00.000Z"],
    ["ten days of bonus", "2027-04-10T10:00:00.000Z", "MONTH", 10, 1, { cycles: 10, unit: "day" }, "2027-05-20T10:00:00.000Z"],
  ] as const)("%s", (_name, from, interval, anchor, cycles, bonus, to) => {
    expect(renewedPeriodEnd(at(from), interval, anchor, cycles, bonus).toISOString()).toBe(to);
  });
});
