// Operator: the address to register at a gateway account's provider for its notices. For a provider that
// signs nothing (Pagar.me) it carries the account's secret token (notice-token.ts); such an account made
// before tokens existed has none yet: its plain URL is shown (and still heard) until updating its
// credentials once issues the token.
import type { Runtime } from "../runtime.ts";
import { CredentialsUnavailable } from "./adapter.ts";
import { NOTICE_TOKEN_FIELD, noticeUrl, takesNoticeToken } from "./notice-token.ts";

export async function getGatewayNoticeUrl(
  runtime: Pick<Runtime, "gateways" | "config">,
  account: { id: string; tenantId: string; provider: string },
): Promise<string | null> {
  if (!runtime.gateways.has(account.provider)) return null;
  const adapter = runtime.gateways.adapter(account.provider);
  if (!adapter.parseWebhook) return null;
  if (!takesNoticeToken(adapter)) return noticeUrl(runtime.config.publicUrl, account.id, null);
  const token = await runtime.gateways.credentials(account).then(
    (c) => c.credentials[NOTICE_TOKEN_FIELD] ?? null,
    (err: unknown) => {
      if (err instanceof CredentialsUnavailable) return null;
      throw err;
    },
  );
  return noticeUrl(runtime.config.publicUrl, account.id, token);
}
