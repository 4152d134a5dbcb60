// The live credential check of createGatewayAccount and updateGatewayAccountCredentials: the adapter asks
// its provider (verifyCredentials; an adapter without one, the sandbox, accepts anything). A refusal is a
// 422 gateway_credentials_invalid with the provider's reason, scrubbed of every credential value.
import type { GatewayAdapter, GatewayCredentials } from "./adapter.ts";
import { AppError } from "../shared/errors.ts";
import { credentialHint } from "./credential-rules.ts";

const MAX_REASON = 300;

export async function verifyGatewayCredentials(adapter: GatewayAdapter, candidate: GatewayCredentials, now: Date): Promise<void> {
  if (!adapter.verifyCredentials) return;
  let reason: string;
  try {
    const check = await adapter.verifyCredentials(candidate, now);
    if (check.ok) return;
    reason = check.reason;
  } catch {
    // A timeout or transport error: nothing is stored, the operator tries again (never a 500).
    reason = "the provider could not be reached to check the credentials; try again";
  }
  throw new AppError("gateway_credentials_invalid", { error: `${adapter.provider} refused the credentials: ${scrub(reason, candidate.credentials)}` });
}

/** The provider's own words, minus any credential value they might echo (replaced by its hint). */
function scrub(reason: string, credentials: Record<string, string>): string {
  let text = String(reason || "no reason given");
  for (const value of Object.values(credentials).sort((a, b) => b.length - a.length)) {
    if (value.length >= 4) text = text.split(value).join(credentialHint(value));
  }
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text;
}
