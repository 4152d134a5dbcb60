// Webhook counters on /metrics. Exhausted deliveries are the alarm: alert on any increase.
import client from "prom-client";
import { registry } from "../shared/metrics.ts";

export const webhookAttempts = new client.Counter({
  name: "webhook_attempts_total",
  help: "Webhook delivery attempts by outcome (delivered, failed, fatal).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const webhookExhausted = new client.Counter({
  name: "webhook_deliveries_exhausted_total",
  help: "Webhook deliveries that failed all 7 attempts (alarm).",
  registers: [registry],
});

export const webhookFirstAttemptLag = new client.Histogram({
  name: "webhook_first_attempt_lag_seconds",
  help: "Time from the event's commit to the start of its first delivery attempt.",
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
