// Pure rules of the lifecycle routes: the reschedule date parser.
import { describe, expect, it } from "vitest";
import { parseIsoDateTime } from "../../core/subscriptions/reschedule-subscription.ts";

describe("parseIsoDateTime", () => {
  it.each([
    ["2027-02-28T10:00:00Z", "2027-02-28T10:00:00.000Z"],
    ["2028-02-29T23:59:59.123Z", "2028-02-29T23:59:59.123Z"],
    ["2027-12-31T21:00:00-03:00", "2028-01-01T00:00:00.000Z"],
    ["2027-03-10T10:00+01:00", "2027-03-10T09:00:00.000Z"],
    ["2027-03-10t10:00:00z", "2027-03-10T10:00:00.000Z"],
  ])("%s is %s", (input, iso) => expect(parseIsoDateTime(input)?.toISOString()).toBe(iso));

  it.each([null, "", "2027-02-29T10:00:00Z", "2027-02-30T10:00:00Z", "2027-04-31T00:00:00Z", "2027-13-01T00:00:00Z", "2027-01-01T24:00:00Z",
    "2027-01-01T10:60:00Z", "2027-01-01T10:00:00", "2027-01-01", "2027-01-01T10:00:00+25:00", "tomorrow", "1800000000"])("%s is invalid", (input) =>
    expect(parseIsoDateTime(input)).toBeNull());
});
