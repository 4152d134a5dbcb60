// A hosted /pay link: a random opaque token handed out once; only its SHA-256 is stored.
import type { LinkKind, LinkStatus, Prisma } from "../../generated/prisma/client.ts";
import { newId } from "./ids.ts";
import { randomBase62, sha256Hex } from "./secrets.ts";
import type { Tx } from "./tx.ts";

export interface MintedLink {
  id: string;
  token: string;
  path: string;
}

export async function mintLink(
  tx: Tx,
  input: {
    tenantId: string;
    kind: LinkKind;
    expiresAt: Date;
    /** Born OPEN; a renewal link is born ACTIVE (an insert is a birth, not a transition). */
    status?: Extract<LinkStatus, "OPEN" | "ACTIVE">;
    fields: Omit<Prisma.LinkUncheckedCreateInput, "id" | "tenantId" | "kind" | "tokenHash" | "status" | "expiresAt">;
  },
): Promise<MintedLink> {
  const token = `pl_${randomBase62(32)}`;
  const id = newId("link");
  await tx.link.create({
    data: { id, tenantId: input.tenantId, kind: input.kind, tokenHash: sha256Hex(token), status: input.status ?? "OPEN", expiresAt: input.expiresAt, ...input.fields },
  });
  return { id, token, path: `/pay/${token}` };
}
