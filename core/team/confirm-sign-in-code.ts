// The second step of a two-factor sign-in: a TOTP code (once per 30-second step) or an unused
// recovery code turns the pending session into a new, signed-in one with a new token.
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { openSession, type SessionClient } from "./panel-sessions.ts";
import { sessionAlive } from "./team-rules.ts";
import { openTotp, recoveryCodeHash, tokenHash, totpStep } from "./team-secrets.ts";
import { recordFailures } from "./sign-in.ts";

export interface ConfirmSignInCodeInput extends SessionClient {
  /** The pending session's token (from signIn's CODE_REQUIRED). */
  pendingToken: string;
  code: string;
}

export async function confirmSignInCode(runtime: Runtime, clock: Clock, input: ConfirmSignInCodeInput): Promise<{ token: string }> {
  const prisma = runtime.db.prisma;
  const now = clock.now();
  const pending = input.pendingToken
    ? await prisma.panelSession.findUnique({ where: { hash: tokenHash(input.pendingToken) }, include: { user: true } })
    : null;
  if (!pending || !pending.pendingCode || !sessionAlive(pending, now)) throw new AppError("invalid_credentials", { error: "a entrada expirou; informe e-mail e senha novamente" });
  const user = pending.user;
  if (user.lockedUntil && user.lockedUntil > now) throw new AppError("sign_in_locked");
  const secret = user.totpSecret && user.totpEnabledAt ? openTotp(runtime, user.id, user.totpSecret) : null;
  const step = secret ? totpStep(secret, input.code, now, user.totpLastStep) : null;
  const recovery = step === null ? recoveryCodeHash(input.code) : null;
  const recoveryUsed = recovery !== null && user.recoveryCodes.includes(recovery);
  if (step === null && !recoveryUsed) {
    await recordFailures(runtime, clock, [user.id]);
    throw new AppError("invalid_code");
  }
  const token = await prisma.$transaction(async (tx) => {
    const spent = await tx.panelSession.updateMany({ where: { id: pending.id, revokedAt: null }, data: { revokedAt: now } });
    if (spent.count !== 1) throw new AppError("invalid_code");
    await tx.tenantUser.update({
      where: { id: user.id },
      data: {
        failedSignIns: 0,
        lockedUntil: null,
        lastSignInAt: now,
        ...(step !== null ? { totpLastStep: step } : { recoveryCodes: user.recoveryCodes.filter((h) => h !== recovery) }),
      },
    });
    return openSession(tx, clock, user, input, false);
  });
  return { token };
}
