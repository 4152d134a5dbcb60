// Operator: replaces a gateway account's credentials (a rotated or revoked provider key). The new ones
// are checked live with the provider first, then sealed under the current key (so an update also moves
// the account off an old key) and the hints follow.
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import type { GatewayAccountRuntime } from "./create-gateway-account.ts";
import { CredentialsUnavailable } from "./adapter.ts";
import { credentialHints, parseCredentials } from "./credential-rules.ts";
import { NOTICE_TOKEN_FIELD, takesNoticeToken, withNoticeToken } from "./notice-token.ts";
import { verifyGatewayCredentials } from "./verify-gateway-credentials.ts";

export interface UpdateGatewayAccountCredentialsInput {
  /** gwa_ id. */
  id: string;
  credentials: unknown;
}

export async function updateGatewayAccountCredentials(runtime: GatewayAccountRuntime, input: UpdateGatewayAccountCredentialsInput) {
  const prisma = runtime.db.prisma;
  const given = parseCredentials(input.credentials);
  if (!isId("gatewayAccount", input.id)) throw notFound("gateway account");
  const account = await prisma.gatewayAccount.findUnique({ where: { id: input.id } });
  if (!account) throw notFound("gateway account");
  const sandbox = account.provider === "sandbox";
  if (!sandbox && !Object.keys(given).length) throw new AppError("invalid_argument", { error: `credentials: a ${account.provider} account needs its credentials` });
  const adapter = runtime.gateways.adapter(account.provider);
  // The notice URL's token survives a key rotation (the URL registered at the provider keeps working);
  // an account made before tokens existed gets its first one here.
  let credentials = given;
  if (takesNoticeToken(adapter)) {
    const current = await runtime.gateways.credentials(account).then(
      (c) => c.credentials[NOTICE_TOKEN_FIELD] ?? null,
      (err: unknown) => {
        if (err instanceof CredentialsUnavailable) return null;
        throw err;
      },
    );
    credentials = withNoticeToken(given, current);
  }
  await verifyGatewayCredentials(adapter, { credentials, apiBaseUrl: account.apiBaseUrl }, runtime.wallClock.now());

  const sealed = Object.keys(credentials).length ? runtime.gateways.vault.seal(account.id, credentials) : null;
  const updated = await prisma.gatewayAccount.update({
    where: { id: account.id },
    data: { credentialsCiphertext: sealed, credentialHints: credentialHints(credentials), credentialsUpdatedAt: runtime.wallClock.now() },
  });
  runtime.gateways.forgetCredentials(account.id);
  return updated;
}
