// The one fallback for a charge whose outcome we never heard (a timeout, a crash between the charge
// and our commit): ask the gateway's own record under the charge's idempotency key, and turn the
// answer into a verdict to settle. Never a guess: what the gateway cannot tell yet stays unknown.
import { fetchChargeStatus, type ChargeOutcome, type GatewayCallContext } from "./gateway-calls.ts";

export interface AskedOutcome {
  /**
   * approved / declined: the gateway's record (with the cents it says it received). The gateway never
   * got the charge: declined "not_received_by_gateway" (no money moved, so a new attempt is safe).
   */
  verdict: Extract<ChargeOutcome, { outcome: "approved" | "declined" }>;
  /** The gateway never got the charge: a failure that counts as no dunning attempt. */
  neverReceived: boolean;
}

/**
 * Null: still unknown (the charge is pending at the gateway, or the gateway could not be asked).
 * `chargeId`: the id already recorded for the attempt, kept on a never-received verdict.
 */
export async function askChargeOutcome(gw: GatewayCallContext, reference: string, idempotencyKey: string, chargeId = ""): Promise<AskedOutcome | null> {
  const status = await fetchChargeStatus(gw, reference, idempotencyKey);
  if (!status || status.outcome === "pending") return null;
  if (status.outcome === "not_found") return { verdict: { outcome: "declined", chargeId, detailCode: "not_received_by_gateway" }, neverReceived: true };
  return { verdict: { outcome: status.outcome, chargeId: status.chargeId, detailCode: status.detailCode, amountCents: status.amountCents }, neverReceived: false };
}
