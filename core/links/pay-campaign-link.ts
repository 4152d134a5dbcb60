// /pay for a renewal-campaign link: the campaign's price and bonus, the methods of the campaign's
// offer. Paying is a renewal-advance order on the targeted subscription (payRenewalLink with the
// campaign's terms); applyOrderPaid extends it by one cycle plus the bonus (service-contract §5).
// Payable while the campaign is active and the subscription is in good standing (active, no open
// invoice), like a subscription renewal link.
import type { Runtime } from "../runtime.ts";
import { AppError } from "../shared/errors.ts";
import { payPageMethods } from "./link-rules.ts";
import { payRenewalLink, renewalLinkBlocker, type CampaignTerms, type RenewalPayment } from "./pay-renewal-link.ts";
import type { ResolvedPayLink } from "./resolve-pay-link.ts";

export interface CampaignPayState {
  /** The resolved link with the campaign offer's methods. */
  resolved: ResolvedPayLink;
  terms: CampaignTerms | null;
  bonus: { cycles: number; unit: string } | null;
  planName: string | null;
  blocker: string | null;
}

export async function campaignLinkState(runtime: Runtime, resolved: ResolvedPayLink): Promise<CampaignPayState> {
  const prisma = runtime.db.prisma;
  const { link } = resolved;
  const campaign = link.campaignId ? await prisma.renewalCampaign.findFirst({ where: { id: link.campaignId, tenantId: link.tenantId } }) : null;
  if (!campaign) return { resolved, terms: null, bonus: null, planName: null, blocker: "Esta campanha não existe mais." };
  const offer = await prisma.offer.findFirstOrThrow({ where: { id: campaign.offerId, tenantId: link.tenantId }, include: { gatewayAccount: true, plan: { select: { name: true } } } });
  const withMethods = { ...resolved, methods: payPageMethods(offer) };
  const terms: CampaignTerms = { campaignId: campaign.id, offerId: offer.id, planId: offer.planId, currency: offer.currency, gatewayAccount: offer.gatewayAccount };
  const bonus = campaign.bonusCycles > 0 ? { cycles: campaign.bonusCycles, unit: campaign.bonusUnit } : null;
  const blocker = !campaign.active ? "Esta campanha foi encerrada." : await renewalLinkBlocker(runtime, resolved);
  return { resolved: withMethods, terms, bonus, planName: offer.plan.name, blocker };
}

export async function payCampaignLink(runtime: Runtime, resolved: ResolvedPayLink, input: { method: (r: ResolvedPayLink) => "card" | "pix"; card: (m: "card" | "pix") => Parameters<typeof payRenewalLink>[2]["card"] }): Promise<RenewalPayment> {
  const state = await campaignLinkState(runtime, resolved);
  if (state.blocker || !state.terms) throw new AppError("conflict", { error: state.blocker ?? "Esta campanha não existe mais." });
  const method = input.method(state.resolved);
  return payRenewalLink(runtime, state.resolved, { method, card: input.card(method), campaign: state.terms });
}

/** "mais 1 mês de bônus", "mais 15 dias de bônus". */
export function bonusText(bonus: { cycles: number; unit: string }): string {
  const words: Record<string, [string, string]> = { day: ["dia", "dias"], month: ["mês", "meses"], year: ["ano", "anos"] };
  const [one, many] = words[bonus.unit] ?? [bonus.unit, bonus.unit];
  return `${bonus.cycles} ${bonus.cycles === 1 ? one : many} de bônus`;
}
