// Webhook delivery: the dispatcher wakes on the deliveries' NOTIFY right after commit, and node-cron
// pokes it every second for retries that fell due (and as a safety net for a lost notification).
import cron from "node-cron";
import type { Runtime } from "../core/runtime.ts";
import { WebhookDispatcher } from "../core/webhooks/dispatcher.ts";

export async function startWebhookDelivery(runtime: Runtime): Promise<{ dispatcher: WebhookDispatcher; stop(): Promise<void> }> {
  const dispatcher = new WebhookDispatcher(runtime);
  await dispatcher.start();
  const poll = cron.schedule("* * * * * *", () => dispatcher.kick(), { name: "webhook-delivery", noOverlap: true });
  return {
    dispatcher,
    async stop() {
      await poll.stop();
      await dispatcher.stop();
    },
  };
}
