// The fixed sandbox test cards (service-contract §4), plus one extra for the timeout path.
// Any other Luhn-valid number approves. The behaviour travels inside the token, never the number.

export type CardBehaviour = "approve" | "card_declined" | "insufficient_funds" | "declines_after_first" | "chargeback" | "timeout" | "refund_declined";

export const TEST_CARDS: Record<string, CardBehaviour> = {
  "4242424242424242": "approve",
  "4000000000000002": "card_declined",
  "4000000000009995": "insufficient_funds",
  "4000000000000341": "declines_after_first",
  "4000000000000259": "chargeback",
  // Not in the contract: the charge lands at the gateway but the call times out (reconciliation
  // path); a refund of its charges also lands but its answer is lost (refund_in_flight path).
  "4000000000000119": "timeout",
  // Not in the contract: charges approve, every refund of them is refused (refund_declined).
  "4000000000005126": "refund_declined",
};

const BEHAVIOURS = new Set<string>(Object.values(TEST_CARDS));

export function behaviourOfCard(number: string): CardBehaviour {
  return TEST_CARDS[number] ?? "approve";
}

/** Sandbox tokens read `tok_sandbox_<behaviour>_<ulid>`. */
export function behaviourOfToken(token: string): CardBehaviour | null {
  const match = /^tok_sandbox_([a-z_]+)_[0-9A-Z]{26}$/.exec(token);
  return match && BEHAVIOURS.has(match[1]!) ? (match[1] as CardBehaviour) : null;
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(number)) return "elo";
  if (/^(606282|3841)/.test(number)) return "hipercard";
  return "card";
}
