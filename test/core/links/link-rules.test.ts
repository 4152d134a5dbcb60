// Shared rules of a subscription's /pay links: what the offer and its gateway take, the public URL, the lifetime.
import { describe, expect, it } from "vitest";
import { linkUrl, offerPayMethods, SUBSCRIPTION_LINK_TTL_MS } from "../../../core/links/link-rules.ts";
import type { Runtime } from "../../../core/runtime.ts";

const offer = (collectionMethods: string[], capabilities: unknown) => ({ collectionMethods, gatewayAccount: { capabilities } });
const BOTH = ["CARD_AUTO", "PIX_MANUAL"];

describe("offerPayMethods", () => {
  it.each([
    // name, collection methods, capabilities, expected {card, pix, capturesCardOnlyOnPaymentPage}
    ["both methods, gateway takes both", BOTH, { supportsCard: true, supportsPix: true, capturesCardOnlyOnPaymentPage: false }, [true, true, false]],
    ["card only on the offer: no Pix even if the gateway takes it", ["CARD_AUTO"], { supportsCard: true, supportsPix: true }, [true, false, false]],
    ["Pix only on the offer: no card even if the gateway takes it", ["PIX_MANUAL"], { supportsCard: true, supportsPix: true }, [false, true, false]],
    ["no method on the offer: nothing", [], { supportsCard: true, supportsPix: true }, [false, false, false]],
    ["an unknown method on the offer counts for nothing", ["BOLETO"], { supportsCard: true, supportsPix: true }, [false, false, false]],
    ["the gateway refuses cards: no card", BOTH, { supportsCard: false, supportsPix: true }, [false, true, false]],
    ["the gateway refuses Pix: no Pix", BOTH, { supportsCard: true, supportsPix: false }, [true, false, false]],
    ["the gateway refuses both: nothing", BOTH, { supportsCard: false, supportsPix: false }, [false, false, false]],
    ["a capability left unsaid is taken (only an explicit false refuses)", BOTH, {}, [true, true, false]],
    ["no capabilities record (null): the offer decides", BOTH, null, [true, true, false]],
    ["no capabilities record (undefined): the offer decides", BOTH, undefined, [true, true, false]],
    ["a gateway that captures cards only on its payment page", BOTH, { capturesCardOnlyOnPaymentPage: true }, [true, true, true]],
    ["capturing only on the payment page needs an explicit true", BOTH, { capturesCardOnlyOnPaymentPage: "yes" }, [true, true, false]],
    ["the capture flag is reported even when the offer takes no card", ["PIX_MANUAL"], { capturesCardOnlyOnPaymentPage: true }, [false, true, true]],
  ])("%s", (_name, methods, capabilities, [card, pix, capturesCardOnlyOnPaymentPage]) => {
    expect(offerPayMethods(offer(methods, capabilities))).toEqual({ card, pix, capturesCardOnlyOnPaymentPage });
  });
});

describe("linkUrl", () => {
  const runtime = (publicUrl: string) => ({ config: { adminToken: "x", publicUrl } }) as unknown as Runtime;
  it.each([
    ["the public URL followed by the link's path", "https://pay.example.com", "/pay/pl_abc", "https://pay.example.com/pay/pl_abc"],
    ["a public URL with a port and a base path", "http://127.0.0.1:8080/billing", "/pay/pl_abc", "http://127.0.0.1:8080/billing/pay/pl_abc"],
  ])("%s", (_name, publicUrl, path, expected) => {
    expect(linkUrl(runtime(publicUrl), path)).toBe(expected);
  });
});

describe("SUBSCRIPTION_LINK_TTL_MS", () => {
  it("is 7 days (billing-api.md Limits): 7 × 24 × 3600 × 1000 = 604 800 000 ms", () => {
    expect(SUBSCRIPTION_LINK_TTL_MS).toBe(604_800_000);
  });
});
