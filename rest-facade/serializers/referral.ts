// GET /v1/referrals/link from the typed ReferralLink selection: {active: false} without a program.
export interface ReferralLinkSelection {
  active: boolean;
  code: string | null;
  url: string | null;
  reward: { kind: string; value: number; cycles: number } | null;
  progress: { pending: number; qualified: number; rewarded: number; reverted: number } | null;
}

export function toReferralLink(r: ReferralLinkSelection) {
  if (!r.active || !r.reward || !r.progress) return { active: false };
  const { pending, qualified, rewarded, reverted } = r.progress;
  return {
    active: true,
    code: r.code,
    // No offer to point at: the contract leaves url out rather than null.
    ...(r.url ? { url: r.url } : {}),
    reward: { kind: r.reward.kind, value: r.reward.value, cycles: r.reward.cycles },
    progress: { pending, qualified, rewarded, reverted },
  };
}
