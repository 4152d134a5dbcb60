// A panel session token -> the signed-in member it stands for, or null (unknown, revoked, idle too
// long, past its absolute expiry, still owed a two-factor code, or its tenant suspended).
import type { TenantMode, TenantUserRole } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { SESSION_TOUCH_MS, sessionAlive } from "./team-rules.ts";
import { looksLikeSessionToken, tokenHash } from "./team-secrets.ts";

export interface PanelPrincipal {
  sessionId: string;
  userId: string;
  email: string;
  role: TenantUserRole;
  twoFactorOn: boolean;
  tenantId: string;
  tenant: { name: string; mode: TenantMode; readOnly: boolean; suspended: boolean; clockAt: Date | null; twoFactorRequired: boolean };
}

export async function authenticatePanelSession(runtime: Runtime, token: string): Promise<PanelPrincipal | null> {
  if (!looksLikeSessionToken(token)) return null;
  const prisma = runtime.db.prisma;
  const session = await prisma.panelSession.findUnique({
    where: { hash: tokenHash(token) },
    include: {
      user: {
        select: {
          email: true,
          role: true,
          totpEnabledAt: true,
          tenant: { select: { name: true, mode: true, readOnly: true, suspended: true, clockAt: true, twoFactorRequired: true } },
        },
      },
    },
  });
  // Session expiry is transport time: the wall clock, never a sandbox tenant's clock.
  const now = runtime.wallClock.now();
  if (!session || session.pendingCode || !sessionAlive(session, now) || session.user.tenant.suspended) return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_MS) {
    await prisma.panelSession.updateMany({ where: { id: session.id, revokedAt: null }, data: { lastSeenAt: now } });
  }
  return {
    sessionId: session.id,
    userId: session.userId,
    email: session.user.email,
    role: session.user.role,
    twoFactorOn: !!session.user.totpEnabledAt,
    tenantId: session.tenantId,
    tenant: session.user.tenant,
  };
}
