// A new campaign link key (the first start after it stopped being derived from ADMIN_TOKEN, or
// a fresh database): every campaign link's stored hash is recomputed under it, in the transaction
// that stores the key, so the tokens GET …/link and …/links return are the ones /pay accepts.
// Tokens handed out under the old key stop working; their links answer the new URL on the next get.
import type { Prisma } from "../../generated/prisma/client.ts";
import { sha256Hex } from "../shared/secrets.ts";
import { campaignLinkToken } from "./campaign-rules.ts";

const BATCH = 1000;

export async function rekeyCampaignLinks(tx: Prisma.TransactionClient, key: Buffer): Promise<number> {
  let done = 0;
  for (let after = ""; ; ) {
    const rows = await tx.link.findMany({ where: { kind: "RENEWAL_CAMPAIGN", id: { gt: after } }, select: { id: true }, orderBy: { id: "asc" }, take: BATCH });
    if (rows.length === 0) return done;
    const ids = rows.map((r) => r.id);
    const hashes = ids.map((id) => sha256Hex(campaignLinkToken(key, id)));
    await tx.$executeRaw`UPDATE links l SET token_hash = v.hash FROM unnest(${ids}::text[], ${hashes}::text[]) AS v(id, hash) WHERE l.id = v.id`;
    done += rows.length;
    after = ids.at(-1)!;
  }
}
