// Billing-run counters on /metrics: what this process's passes did, by duty outcome (renewed,
// charge_failed, past_due, ..., errors). Summed over instances they give the run's total; per
// instance, how the shared run split.
import client from "prom-client";
import { registry } from "../shared/metrics.ts";

export const billingDuties = new client.Counter({
  name: "billing_duties_total",
  help: "Billing-run duties this process completed, by outcome (renewed = a renewal charged and committed).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});
