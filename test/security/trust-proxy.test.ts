// TRUST_PROXY: unset believes no X-Forwarded-For; a hop count or named proxies are passed to Express;
// "true" (believe any client) is refused.
import { describe, expect, it } from "vitest";
import { trustProxyFromEnv } from "../../http/trust-proxy.ts";

describe("TRUST_PROXY", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["false", false],
    ["1", 1],
    ["loopback", ["loopback"]],
    ["10.0.0.0/8, 10.1.2.3", ["10.0.0.0/8", "10.1.2.3"]],
  ])("%s -> %j", (value, expected) => {
    expect(trustProxyFromEnv(value)).toEqual(expected);
  });

  it("refuses true, which would believe any client's header", () => {
    expect(() => trustProxyFromEnv("true")).toThrow(/TRUST_PROXY/);
  });
});
