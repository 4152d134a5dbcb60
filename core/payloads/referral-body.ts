// The contract's referral event data (referral.* events) from the camelCase fields of the GraphQL
// ReferralEventData type. Pure: the core's webhook data and the facade's GET /v1/events both call it.
export interface ReferralPartyFields {
  id: string;
  email: string;
  name: string;
}

export interface ReferralEventFields {
  referralId: string;
  status: string;
  referrer: ReferralPartyFields;
  referred: ReferralPartyFields;
  reward: { kind: string | null; value: number | null; cycles: number | null };
}

const party = (p: ReferralPartyFields) => ({ id: p.id, email: p.email, name: p.name });

export function referralEventBody(r: ReferralEventFields) {
  return {
    referral_id: r.referralId,
    status: r.status.toLowerCase(),
    referrer: party(r.referrer),
    referred: party(r.referred),
    reward: { kind: r.reward.kind, value: r.reward.value, cycles: r.reward.cycles },
  };
}
