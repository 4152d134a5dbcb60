// Turning two-factor on, step one: a new TOTP secret, sealed at rest, not yet in force. The member
// scans it, then enableTwoFactor confirms it with a code. Asking again replaces an unconfirmed secret.
import type { Runtime } from "../runtime.ts";
import { AppError } from "../shared/errors.ts";
import { newTotpSecret, openTotp, sealTotp, totpUri } from "./team-secrets.ts";

export const TOTP_ISSUER = "Billing";

export async function startTwoFactor(runtime: Runtime, input: { tenantId: string; userId: string }): Promise<{ secret: string; uri: string }> {
  const prisma = runtime.db.prisma;
  const user = await prisma.tenantUser.findFirst({ where: { id: input.userId, tenantId: input.tenantId }, select: { email: true, totpEnabledAt: true } });
  if (!user) throw new AppError("not_found", { error: "user not found" });
  if (user.totpEnabledAt) throw new AppError("conflict", { error: "a verificação em duas etapas já está ativa" });
  const secret = newTotpSecret();
  await prisma.tenantUser.update({ where: { id: input.userId }, data: { totpSecret: sealTotp(runtime, input.userId, secret) } });
  return { secret, uri: totpUri(secret, user.email, TOTP_ISSUER) };
}

/** The unconfirmed secret again (the page is reloaded between scanning and confirming). */
export async function pendingTwoFactor(runtime: Runtime, input: { tenantId: string; userId: string }): Promise<{ secret: string; uri: string } | null> {
  const user = await runtime.db.prisma.tenantUser.findFirst({ where: { id: input.userId, tenantId: input.tenantId }, select: { email: true, totpSecret: true, totpEnabledAt: true } });
  if (!user?.totpSecret || user.totpEnabledAt) return null;
  const secret = openTotp(runtime, input.userId, user.totpSecret);
  return { secret, uri: totpUri(secret, user.email, TOTP_ISSUER) };
}
