// GET /v1/referrals/link: the referring customer's stable code (created on the first call, one per
// customer even under concurrent first calls), the active program's reward and the progress of the
// customer's referrals. `url` is the hosted checkout of the offer of the customer's newest live
// subscription (else its newest subscription, else the tenant's oldest active recurring offer), with
// `?ref=CODE`; it is omitted when the tenant has no such offer.
import { randomInt } from "node:crypto";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";

export interface GetReferralLinkInput {
  tenantId: string;
  externalId?: string | null;
  email?: string | null;
  publicUrl: string;
}

export type ReferralLink =
  | { active: false }
  | {
      active: true;
      code: string;
      url?: string;
      reward: { kind: string; value: number; cycles: number };
      progress: { pending: number; qualified: number; rewarded: number; reverted: number };
    };

/** Unambiguous characters (no 0/O, 1/I/L); 8 of them: about 10^12 codes. */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 8;

export async function getReferralLink(prisma: PrismaClient, input: GetReferralLinkInput): Promise<ReferralLink> {
  const byExternalId = input.externalId != null && input.externalId !== "";
  if (!byExternalId && (input.email == null || input.email === "")) throw new AppError("missing_customer_key");
  const customer = await prisma.customer.findFirst({
    where: byExternalId ? { tenantId: input.tenantId, externalId: input.externalId! } : { tenantId: input.tenantId, email: input.email! },
    orderBy: { id: "asc" },
  });
  if (!customer) throw notFound("customer");
  const program = await prisma.referralProgram.findFirst({ where: { tenantId: input.tenantId, active: true }, orderBy: { id: "desc" } });
  if (!program) return { active: false };
  const code = await ensureCode(prisma, input.tenantId, customer.id);
  const counts = await prisma.referral.groupBy({ by: ["status"], where: { tenantId: input.tenantId, referrerCustomerId: customer.id }, _count: { _all: true } });
  const count = (s: string) => counts.find((c) => c.status === s)?._count._all ?? 0;
  const offerId = await linkOffer(prisma, input.tenantId, customer.id);
  return {
    active: true,
    code,
    ...(offerId ? { url: `${input.publicUrl}/checkout/${offerId}?ref=${code}` } : {}),
    reward: { kind: program.rewardKind, value: program.rewardValue, cycles: program.rewardCycles },
    progress: { pending: count("PENDING"), qualified: count("QUALIFIED"), rewarded: count("REWARDED"), reverted: count("REVERTED") },
  };
}

/** The customer's code, created once: a concurrent first call loses the unique race and reads the winner's. */
async function ensureCode(prisma: PrismaClient, tenantId: string, customerId: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await prisma.referralCode.findUnique({ where: { tenantId_customerId: { tenantId, customerId } } });
    if (existing) return existing.code;
    const code = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    try {
      return (await prisma.referralCode.create({ data: { id: newId("referralCode"), tenantId, customerId, code } })).code;
    } catch (err) {
      // Either the customer already got a code (reread) or the code is taken (draw again).
      if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")) throw err;
    }
  }
  throw new Error("could not allocate a referral code");
}

async function linkOffer(prisma: PrismaClient, tenantId: string, customerId: string): Promise<string | null> {
  const subs = await prisma.subscription.findMany({ where: { tenantId, customerId }, orderBy: { id: "desc" }, select: { offerId: true, status: true } });
  const sub = subs.find((s) => s.status !== "CANCELED" && s.status !== "PENDING_FIRST_PAYMENT") ?? subs[0];
  if (sub) return sub.offerId;
  const offer = await prisma.offer.findFirst({ where: { tenantId, kind: "RECURRING", active: true }, orderBy: { id: "asc" }, select: { id: true } });
  return offer?.id ?? null;
}
