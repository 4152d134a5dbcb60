// The registry of browser tokenizers (web/browser-tokenizers/): what the pages ask it, and
// the CSP a page gets in production (the provider's own origins) and under the test override (the fake's).
import type { Response } from "express";
import { describe, expect, it } from "vitest";
import { CredentialsUnavailable } from "../../core/gateways/adapter.ts";
import type { Runtime } from "../../core/runtime.ts";
import { browserCardFor, setBrowserCardCsp, tokenizesInBrowser } from "../../web/hosted/browser-card.ts";
import { browserTokenizer } from "../../web/browser-tokenizers/index.ts";

const ACCOUNT = { id: "gwa_1", tenantId: "tn_1", provider: "stripe" };

function runtimeWith(credentials: Record<string, string>, apiBaseUrl: string | null, allowOverride: boolean): Runtime {
  return {
    config: { publicUrl: "https://pay.example.com", allowGatewayBaseUrlOverride: allowOverride },
    gateways: { credentials: async () => ({ credentials, apiBaseUrl }) },
  } as unknown as Runtime;
}

function cspOf(runtime: Runtime, card: NonNullable<Awaited<ReturnType<typeof browserCardFor>>>): Map<string, string[]> {
  let header = "";
  setBrowserCardCsp({ set: (_k: string, v: string) => void (header = v) } as unknown as Response, runtime, card);
  return new Map(header.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));
}

describe("browser tokenizers", () => {
  it("the registry knows Stripe; the sandbox types its (test) cards on our page", () => {
    expect(tokenizesInBrowser("stripe")).toBe(true);
    expect(tokenizesInBrowser("sandbox")).toBe(false);
    expect(tokenizesInBrowser(undefined)).toBe(false);
    const stripe = browserTokenizer("stripe")!;
    expect(stripe.tokenField.name).toBe("payment_method_id");
    expect(stripe.tokenField.pattern.test("pm_1Nq2")).toBe(true);
    for (const bad of ["4242424242424242", "tok_visa", "pm_x y", ""]) expect(stripe.tokenField.pattern.test(bad)).toBe(false);
    expect(stripe.publicKey.field).toBe("publishableKey");
  });

  it("production: Stripe.js from js.stripe.com and a CSP of exactly Stripe's origins (an apiBaseUrl without the override changes nothing)", async () => {
    const runtime = runtimeWith({ publishableKey: "pk_live_abc123", secretKey: "sk_live_x" }, "http://127.0.0.1:9/", false);
    const card = (await browserCardFor(runtime, ACCOUNT))!;
    expect(card.scriptUrl).toBe("https://js.stripe.com/v3/");
    expect(card.publicKey).toBe("pk_live_abc123");
    const d = cspOf(runtime, card);
    expect(d.get("script-src")).toEqual([`'nonce-${card.nonce}'`, "https://js.stripe.com", "https://*.js.stripe.com"]);
    expect(d.get("frame-src")).toEqual(["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"]);
    expect(d.get("connect-src")).toEqual(["https://api.stripe.com"]);
    expect(d.get("img-src")).toEqual(["'self'", "https://pay.example.com"]);
    expect(d.get("default-src")).toEqual(["'none'"]);
  });

  it("test override: the script and every origin from the account's apiBaseUrl (the fake)", async () => {
    const runtime = runtimeWith({ publishableKey: "pk_test_abc123" }, "http://127.0.0.1:4567/some/path", true);
    const card = (await browserCardFor(runtime, ACCOUNT))!;
    expect(card.scriptUrl).toBe("http://127.0.0.1:4567/v3/");
    const d = cspOf(runtime, card);
    expect(d.get("script-src")).toEqual([`'nonce-${card.nonce}'`, "http://127.0.0.1:4567"]);
    expect(d.get("frame-src")).toEqual(["http://127.0.0.1:4567"]);
    expect(d.get("connect-src")).toEqual(["http://127.0.0.1:4567"]);
  });

  it("no card in the browser without a well-formed public key (a secret key is never printed)", async () => {
    for (const credentials of [{} as Record<string, string>, { publishableKey: "sk_live_abc" }, { publishableKey: "pk_live_" }, { publishableKey: 'pk_live_a"b' }]) {
      expect(await browserCardFor(runtimeWith(credentials, null, false), ACCOUNT)).toBeNull();
    }
    expect(await browserCardFor(runtimeWith({ publishableKey: "pk_live_abc" }, null, false), { ...ACCOUNT, provider: "sandbox" })).toBeNull();
    // Credentials that cannot be opened: no card on the page, not a 500.
    const locked = { config: { publicUrl: "https://pay.example.com" }, gateways: { credentials: async () => Promise.reject(new CredentialsUnavailable("key k1 not held")) } } as unknown as Runtime;
    expect(await browserCardFor(locked, ACCOUNT)).toBeNull();
  });
});
