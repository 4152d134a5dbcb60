// Turning two-factor on, step two: a code from the app proves the secret was scanned. Recovery codes
// are made now and returned once; only their hashes are kept.
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { RECOVERY_CODE_COUNT } from "./team-rules.ts";
import { newRecoveryCodes, openTotp, recoveryCodeHash, totpStep } from "./team-secrets.ts";

export async function enableTwoFactor(runtime: Runtime, clock: Clock, input: { tenantId: string; userId: string; code: string }): Promise<{ recoveryCodes: string[] }> {
  const prisma = runtime.db.prisma;
  const user = await prisma.tenantUser.findFirst({ where: { id: input.userId, tenantId: input.tenantId } });
  if (!user) throw new AppError("not_found", { error: "user not found" });
  if (user.totpEnabledAt) throw new AppError("conflict", { error: "a verificação em duas etapas já está ativa" });
  if (!user.totpSecret) throw new AppError("conflict", { error: "gere o código QR antes de confirmar" });
  const now = clock.now();
  const step = totpStep(openTotp(runtime, user.id, user.totpSecret), input.code, now, user.totpLastStep);
  if (step === null) throw new AppError("invalid_code");
  const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
  const done = await prisma.tenantUser.updateMany({
    where: { id: user.id, tenantId: input.tenantId, totpEnabledAt: null },
    data: { totpEnabledAt: now, totpLastStep: step, recoveryCodes: codes.map(recoveryCodeHash) },
  });
  if (done.count !== 1) throw new AppError("conflict", { error: "a verificação em duas etapas já está ativa" });
  return { recoveryCodes: codes };
}
