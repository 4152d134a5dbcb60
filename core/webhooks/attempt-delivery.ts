// One attempt of one claimed delivery: sign, POST, and decide what comes next by the schedule.
import { eventEnvelope } from "../events/event-envelope.ts";
import type { Clock } from "../shared/clock.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";
import { postWebhook } from "./post-webhook.ts";
import type { AttemptOutcome } from "./record-attempts.ts";
import { MAX_ATTEMPTS, nextAttemptAt } from "./retry-schedule.ts";
import { deliveryHeaders } from "./sign-delivery.ts";

export const WEBHOOK_TIMEOUT_MS = 10_000;

export async function attemptDelivery(d: ClaimedDelivery, wall: Clock, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<AttemptOutcome> {
  const started = wall.now();
  const body = JSON.stringify(eventEnvelope({ id: d.event_id, tenantId: d.tenant_id, type: d.type, data: d.data, createdAt: d.event_created_at }));
  const previousLive = d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at > started ? d.previous_secret : null;
  const headers = deliveryHeaders(d.event_id, body, { secret: d.secret, previous: previousLive }, started.getTime());
  const result = await postWebhook(d.url, body, headers, { timeoutMs, mode: d.mode });

  const attemptNo = d.attempt_count + 1;
  const base = { deliveryId: d.id, tenantId: d.tenant_id, attemptNo, scheduledAt: d.due_at, startedAt: started, ...result };
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) {
    return { ...base, status: "DELIVERED", nextAttemptAt: null };
  }
  if (result.fatal) return { ...base, status: "FAILED", nextAttemptAt: null };
  // Retries count from the previous attempt on the tenant's clock. A sandbox tenant's clock stands
  // still between advanceClock stops, so its attempt happened at the instant it fell due.
  const attemptedAt = d.mode === "SANDBOX" && d.clock_at ? d.due_at : started;
  const next = nextAttemptAt(attemptNo - d.series_start, attemptedAt);
  return next && attemptNo - d.series_start < MAX_ATTEMPTS
    ? { ...base, status: "PENDING", nextAttemptAt: next }
    : { ...base, status: "EXHAUSTED", nextAttemptAt: null };
}
