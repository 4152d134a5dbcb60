// Crash drills (test/drills): a fault hook that kills the process outright (SIGKILL, no shutdown
// hook, nothing flushed) at the Nth hit of a named fault point. Armed only by the environment:
//   CRASH_AT=<point>:<n>        fixed at start-up;
//   CRASH_AT_FILE=<path>        re-read at every hit, so a running process can be armed per trial.
//                               The file holds `<point>:<n>` (or `<point>:<n>:<tag>`; a new tag
//                               restarts the count); absent or empty = disarmed.
// Neither set: no hook at all (production).
import fs from "node:fs";

/**
 * The dangerous windows a crash drill aims at:
 * - after-gateway-charge / after-gateway-refund: the gateway acted, nothing of ours is committed yet;
 * - after-commit: a use case committed its verdict, the caller has not heard (no response yet);
 * - billing-mid-batch: between two subscriptions of a billing pass;
 * - after-webhook-post: the receiver answered, the outcome is not recorded yet;
 * - before-email-send / after-email-accepted / after-email-sent: an outbox e-mail claimed and not yet
 *   handed to SMTP; accepted by the SMTP server, SENT not written yet; SENT committed.
 */
export type FaultPoint =
  | "after-gateway-charge"
  | "after-gateway-refund"
  | "after-commit"
  | "billing-mid-batch"
  | "after-webhook-post"
  | "before-email-send"
  | "after-email-accepted"
  | "after-email-sent";

export function crashFaultsFromEnv(env: NodeJS.ProcessEnv = process.env): ((point: FaultPoint) => void) | undefined {
  const fixed = env.CRASH_AT;
  const file = env.CRASH_AT_FILE;
  if (!fixed && !file) return undefined;
  const hits = new Map<string, number>();
  return (point) => {
    const spec = file ? readSpec(file) : fixed!;
    const [target, nth, tag = ""] = spec.trim().split(":");
    if (target !== point) return;
    const key = `${target}:${nth}:${tag}`;
    const n = (hits.get(key) ?? 0) + 1;
    hits.set(key, n);
    if (n === Number(nth)) {
      process.stderr.write(`crash drill: SIGKILL at ${point} (hit ${n})\n`);
      process.kill(process.pid, "SIGKILL");
    }
  };
}

function readSpec(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
