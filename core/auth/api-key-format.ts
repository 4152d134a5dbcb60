// API key format (service-contract §5): bk_live_ or bk_test_ followed by 32 base62 characters.
import { randomBase62 } from "../shared/secrets.ts";

const KEY_PATTERN = /^bk_(live|test)_[0-9A-Za-z]{32}$/;

export function generateApiKey(mode: "LIVE" | "SANDBOX"): string {
  return `bk_${mode === "LIVE" ? "live" : "test"}_${randomBase62(32)}`;
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** Displayable prefix of a key; never enough to use it. */
export function keyHint(key: string): string {
  return `${key.slice(0, 12)}…`;
}
