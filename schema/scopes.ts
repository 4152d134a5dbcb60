// Which auth scope failed first, so the refusal maps to insufficient_scope or account_locked.
import type { AuthFailure } from "@pothos/plugin-scope-auth";

export function firstFailedScope(failure: AuthFailure): string | undefined {
  if (failure.kind === "AuthScope") return failure.scope;
  if ("failures" in failure) {
    // Scope problems outrank lock problems: a read key on a locked account hears insufficient_scope.
    const scopes = failure.failures.map(firstFailedScope).filter((s): s is string => !!s);
    return scopes.find((s) => s !== "unlocked") ?? scopes[0];
  }
  return undefined;
}
