// The one prom-client registry, served at /metrics; core counters (webhook alarms) register here too.
import client from "prom-client";

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });
