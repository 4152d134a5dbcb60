// `npm run bench`: every benchmark in turn, each printing its own figures at its end.
import { main as billingRun } from "./billing-run.ts";
import { main as entitlements } from "./entitlements.ts";
import { main as pagination } from "./pagination.ts";
import { main as serviceMemory } from "./service-memory.ts";
import { main as webhooks } from "./webhooks.ts";

console.log("\n######## 1/5  GET /v1/entitlements: the service vs bare Express, each in its own process, autocannon in a third ########\n");
await entitlements();
console.log("\n######## 2/5  GET /v1/subscriptions: keyset pagination over the whole tenant ########\n");
await pagination();
console.log("\n######## 3/5  Billing run: one pass over 10k and 100k due renewals, and a dunning cycle ########\n");
await billingRun();
console.log("\n######## 4/5  Webhooks: 20k deliveries to a loopback receiver, commit -> first attempt, a stalled receiver ########\n");
await webhooks();
console.log("\n######## 5/5  The service's own memory under the /v1 loads: main.ts in a child process ########\n");
await serviceMemory();
