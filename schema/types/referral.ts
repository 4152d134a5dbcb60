// Referral program (operator mutation createReferralProgram) and the referring customer's link (query).
import { createReferralProgram } from "../../core/referrals/create-referral-program.ts";
import { getReferralLink } from "../../core/referrals/get-referral-link.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { ReferralStatusEnum } from "./enums.ts";
import { keysetConnection } from "./page.ts";

builder.prismaObject("ReferralProgram", {
  description: "The tenant's referral program: the reward of a referral and when a referral qualifies. One is active per tenant.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "rp_ id." }),
    rewardKind: t.exposeString("rewardKind", { description: "Reward kind: percent_next (percent off the referrer's next renewals)." }),
    rewardValue: t.exposeInt("rewardValue", { description: "Percent off each discounted renewal (1-100)." }),
    rewardCycles: t.exposeInt("rewardCycles", { description: "Renewals of the referrer discounted per rewarded referral." }),
    qualifyAfterPaidCycles: t.exposeInt("qualifyAfterPaidCycles", { description: "Paid cycles of the referred subscription (the first one included) before the referral qualifies." }),
    active: t.exposeBoolean("active", { description: "False once replaced by a newer program of the tenant." }),
  }),
});

const ReferralRewardInput = builder.inputType("ReferralRewardInput", {
  description: "The reward of a referral, snapshotted on each referral when it is created.",
  fields: (t) => ({
    kind: t.string({ required: true, description: "percent_next: the referrer's next renewals are discounted by value percent." }),
    value: t.int({ required: true, description: "Percent off, an integer from 1 to 100." }),
    cycles: t.int({ required: true, description: "How many renewals of the referrer are discounted (at least 1)." }),
  }),
});

type ReferralLinkResult = Awaited<ReturnType<typeof getReferralLink>>;
type ActiveLink = Extract<ReferralLinkResult, { active: true }>;

const ReferralLinkRewardRef = builder.objectRef<ActiveLink["reward"]>("ReferralLinkReward").implement({
  description: "The reward a referral earns under the active program.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "percent_next: percent off the referrer's next renewals." }),
    value: t.exposeInt("value", { description: "Percent off each discounted renewal (1-100)." }),
    cycles: t.exposeInt("cycles", { description: "Renewals discounted per rewarded referral." }),
  }),
});

const ReferralProgressRef = builder.objectRef<ActiveLink["progress"]>("ReferralProgress").implement({
  description: "How many of the customer's referrals are in each status.",
  fields: (t) => ({
    pending: t.exposeInt("pending", { description: "Subscribed, not qualified yet." }),
    qualified: t.exposeInt("qualified", { description: "Qualified, reward not given yet." }),
    rewarded: t.exposeInt("rewarded", { description: "Rewarded." }),
    reverted: t.exposeInt("reverted", { description: "Undone." }),
  }),
});

const ReferralLinkRef = builder.objectRef<ReferralLinkResult>("ReferralLink").implement({
  description: "A customer's referral link: {active: false} without an active program, else code, url, reward and progress.",
  fields: (t) => ({
    active: t.boolean({ description: "True when the tenant has an active referral program.", resolve: (r) => r.active }),
    code: t.string({ nullable: true, description: "The customer's stable referral code; null without a program.", resolve: (r) => (r.active ? r.code : null) }),
    url: t.string({
      nullable: true,
      description: "Checkout address carrying the code (the customer's current offer, else the tenant's first recurring offer); null when there is none.",
      resolve: (r) => (r.active ? (r.url ?? null) : null),
    }),
    reward: t.field({ type: ReferralLinkRewardRef, nullable: true, description: "The active program's reward; null without a program.", resolve: (r) => (r.active ? r.reward : null) }),
    progress: t.field({ type: ReferralProgressRef, nullable: true, description: "The customer's referrals by status; null without a program.", resolve: (r) => (r.active ? r.progress : null) }),
  }),
});

builder.mutationFields((t) => ({
  createReferralProgram: t.prismaField({
    type: "ReferralProgram",
    description:
      "Create the tenant's referral program. One program is active per tenant: creating another deactivates the previous one; referrals already made keep their reward snapshot and their program's qualification rule.",
    authScopes: { operator: true },
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      reward: t.arg({ type: ReferralRewardInput, required: true, description: "Reward of each referral: {kind: percent_next, value: 1-100, cycles: >= 1}." }),
      qualifyAfterPaidCycles: t.arg.int({ required: true, description: "Paid cycles of the referred subscription before the referral qualifies (at least 1)." }),
    },
    resolve: (_q, _r, args, ctx) =>
      createReferralProgram(ctx.db.prisma, { tenantId: String(args.tenantId), reward: args.reward, qualifyAfterPaidCycles: args.qualifyAfterPaidCycles }),
  }),
}));

builder.queryFields((t) => ({
  referralLink: t.field({
    type: ReferralLinkRef,
    description: "Gets or creates the referral code of a customer (by externalId, preferred, or email), with the active program's reward and the progress of its referrals.",
    authScopes: { tenant: true, operator: true },
    args: {
      externalId: t.arg.string({ required: false, description: "The tenant's key for the customer." }),
      email: t.arg.string({ required: false, description: "Alternative key (personal data in logs; discouraged)." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (_root, args, ctx) =>
      getReferralLink(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), externalId: args.externalId, email: args.email, publicUrl: ctx.runtime.config.publicUrl }),
  }),
}));

const ReferralSnapshotRef = builder.objectRef<{ kind: string | null; value: number | null; cycles: number | null }>("ReferralRewardSnapshot").implement({
  description: "The reward as snapshotted on the referral when it was created.",
  fields: (t) => ({
    kind: t.exposeString("kind", { nullable: true, description: "percent_next." }),
    value: t.exposeInt("value", { nullable: true, description: "Percent off each discounted renewal." }),
    cycles: t.exposeInt("cycles", { nullable: true, description: "Renewals of the referrer discounted." }),
  }),
});

export const ReferralRef = builder.prismaObject("Referral", {
  description: "A referral: a customer who subscribed with another customer's code, and where its reward stands.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "rfr_ id." }),
    status: t.expose("status", { type: ReferralStatusEnum, description: "PENDING, QUALIFIED, REWARDED or REVERTED." }),
    programId: t.exposeString("programId", { description: "rp_ id of the program it was made under." }),
    referrerCustomerId: t.exposeString("referrerCustomerId", { description: "cus_ id of the customer who referred." }),
    referredCustomerId: t.exposeString("referredCustomerId", { description: "cus_ id of the customer referred." }),
    referredSubscriptionId: t.exposeString("referredSubscriptionId", { nullable: true, description: "sub_ id whose paid cycles qualify the referral." }),
    reward: t.field({
      type: ReferralSnapshotRef,
      description: "The reward snapshot (the program's values when it was made).",
      resolve: (r) => {
        const s = (r.reward ?? {}) as { kind?: string; value?: number; cycles?: number };
        return { kind: s.kind ?? null, value: s.value ?? null, cycles: s.cycles ?? null };
      },
    }),
    qualifiedAt: t.expose("qualifiedAt", { type: "DateTime", nullable: true, description: "When it qualified." }),
    rewardedAt: t.expose("rewardedAt", { type: "DateTime", nullable: true, description: "When the referrer was rewarded." }),
    revertedAt: t.expose("revertedAt", { type: "DateTime", nullable: true, description: "When it was undone." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
  }),
});

builder.queryFields((t) => ({
  referrals: t.connection(
    {
      type: ReferralRef,
      description: "The tenant's referrals in id order (keyset), filtered by status or by the referring customer.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        status: t.arg({ type: [ReferralStatusEnum], required: false, description: "Only referrals in one of these statuses." }),
        referrerCustomerId: t.arg.string({ required: false, description: "Only the referrals of this referring cus_ id." }),
      },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("referral", args, (id, take) =>
          ctx.db.prisma.referral.findMany({
            where: {
              tenantId,
              ...(args.status?.length ? { status: { in: args.status } } : {}),
              ...(args.referrerCustomerId ? { referrerCustomerId: args.referrerCustomerId } : {}),
              ...(id ? { id } : {}),
            },
            orderBy: { id: "asc" },
            take,
          }),
        );
      },
    },
    { name: "ReferralsConnection", description: "A page of referrals." },
    { name: "ReferralsEdge", description: "One referral of the page." },
  ),
}));
