// An unexpected failure on a hosted page, logged without anything that could be card data (digit
// runs, the submitted CVC). Not under `err`: pino's error serializer would rewrite the message.
import type { Request } from "express";
import type { Runtime } from "../../core/runtime.ts";

export function logSafely(req: Request, runtime: Runtime, err: unknown, what: string): void {
  const e = err instanceof Error ? err : new Error(String(err));
  const body = (req.body ?? {}) as Record<string, unknown>;
  const cvc = typeof body.card_cvc === "string" ? body.card_cvc : undefined;
  let message = e.message.replace(/\d(?:[ .-]?\d){11,18}/g, "[redacted]");
  if (cvc && /^\d{3,4}$/.test(cvc)) message = message.replace(new RegExp(`\\b${cvc}\\b`, "g"), "[redacted]");
  const frames = (e.stack ?? "").split("\n").filter((l) => l.trimStart().startsWith("at "));
  (req.log ?? runtime.logger).error({ failure: { type: e.name, message, stack: frames.join("\n") } }, what);
}
