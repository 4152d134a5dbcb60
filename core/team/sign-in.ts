// Panel sign-in with e-mail and password. An unknown e-mail and a wrong password get the same answer
// in about the same time; wrong passwords in a row lock the account for a while. With two-factor on,
// the answer is a pending session that can do nothing until confirmSignInCode.
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { openSession, type SessionClient } from "./panel-sessions.ts";
import { MAX_FAILED_SIGN_INS, SIGN_IN_LOCK_MS, normalizeEmail } from "./team-rules.ts";
import { passwordMatches, spendPasswordTime } from "./team-secrets.ts";

export interface SignInInput extends SessionClient {
  email: string;
  password: string;
}

export interface SignInResult {
  /** SIGNED_IN, or CODE_REQUIRED: the token is a pending session owed a two-factor code. */
  status: "SIGNED_IN" | "CODE_REQUIRED";
  token: string;
}

export async function signIn(runtime: Runtime, clock: Clock, input: SignInInput): Promise<SignInResult> {
  const prisma = runtime.db.prisma;
  const email = normalizeEmail(input.email);
  const now = clock.now();
  // The same e-mail may belong to several teams: the password picks the account, most recent first.
  const candidates = email
    ? await prisma.tenantUser.findMany({
        where: { email, passwordHash: { not: null }, tenant: { suspended: false } },
        orderBy: [{ lastSignInAt: { sort: "desc", nulls: "last" } }, { id: "asc" }],
        take: 5,
      })
    : [];
  if (!candidates.length) {
    await spendPasswordTime(input.password);
    throw new AppError("invalid_credentials");
  }
  for (const user of candidates) {
    if (!(await passwordMatches(user.passwordHash, input.password))) continue;
    if (user.lockedUntil && user.lockedUntil > now) throw new AppError("sign_in_locked");
    const pending = !!user.totpEnabledAt;
    const token = await prisma.$transaction(async (tx) => {
      if (!pending) await tx.tenantUser.update({ where: { id: user.id }, data: { failedSignIns: 0, lockedUntil: null, lastSignInAt: now } });
      return openSession(tx, clock, user, input, pending);
    });
    return { status: pending ? "CODE_REQUIRED" : "SIGNED_IN", token };
  }
  await recordFailures(runtime, clock, candidates.map((u) => u.id));
  if (candidates.some((u) => u.lockedUntil && u.lockedUntil > now)) throw new AppError("sign_in_locked");
  throw new AppError("invalid_credentials");
}

/** One more failure on each account; the one that reaches the limit waits SIGN_IN_LOCK_MS. */
export async function recordFailures(runtime: Runtime, clock: Clock, userIds: string[]): Promise<void> {
  const now = clock.now();
  const prisma = runtime.db.prisma;
  await prisma.tenantUser.updateMany({ where: { id: { in: userIds } }, data: { failedSignIns: { increment: 1 } } });
  await prisma.tenantUser.updateMany({
    where: { id: { in: userIds }, failedSignIns: { gte: MAX_FAILED_SIGN_INS } },
    data: { failedSignIns: 0, lockedUntil: new Date(now.getTime() + SIGN_IN_LOCK_MS) },
  });
}
