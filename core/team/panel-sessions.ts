// Opening a panel session (shared by sign-in and its two-factor step): a fresh random token every
// time, so a token known before sign-in (session fixation) never becomes a signed-in one.
import type { Tx } from "../shared/tx.ts";
import type { Clock } from "../shared/clock.ts";
import { newId } from "../shared/ids.ts";
import { PENDING_CODE_MS, SESSION_ABSOLUTE_MS } from "./team-rules.ts";
import { newSessionToken, tokenHash } from "./team-secrets.ts";

export interface SessionClient {
  /** The browser's address, as the panel saw it. */
  address: string;
  userAgent: string;
}

export async function openSession(
  tx: Tx,
  clock: Clock,
  user: { id: string; tenantId: string },
  client: SessionClient,
  pendingCode: boolean,
): Promise<string> {
  const token = newSessionToken();
  const now = clock.now();
  await tx.panelSession.create({
    data: {
      id: newId("panelSession"),
      tenantId: user.tenantId,
      userId: user.id,
      hash: tokenHash(token),
      pendingCode,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + (pendingCode ? PENDING_CODE_MS : SESSION_ABSOLUTE_MS)),
      userAgent: client.userAgent.slice(0, 300),
      address: client.address.slice(0, 100),
    },
  });
  return token;
}
