// Replaces a gateway account's credentials (a rotated or revoked provider key): the operator's call, or a
// member's for their own tenant's account. The new ones are checked live with the provider first, then
// sealed under the current key (so an update also moves the account off an old key) and the hints follow.
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
  /** Only an account of this tenant (a member's call); another tenant's answers like an unknown id. */
  tenantId?: string;
  /** Fields left out keep their current values (the panel: add Stripe's signing secret without retyping the key). */
  keepUnset?: boolean;
}

export async function updateGatewayAccountCredentials(runtime: GatewayAccountRuntime, input: UpdateGatewayAccountCredentialsInput) {
  const prisma = runtime.db.prisma;
  let given = parseCredentials(input.credentials);
  if (!isId("gatewayAccount", input.id)) throw notFound("gateway account");
  const account = await prisma.gatewayAccount.findFirst({ where: input.tenantId === undefined ? { id: input.id } : { id: input.id, tenantId: input.tenantId } });
  if (!account) throw notFound("gateway account");
  const sandbox = account.provider === "sandbox";
  if (input.keepUnset && Object.keys(given).length) given = { ...(await currentCredentials(runtime, account)), ...given };
  if (!sandbox && !Object.keys(given).length) throw new AppError("invalid_argument", { error: `credentials: a ${account.provider} account needs its credentials` });
  const adapter = runtime.gateways.adapter(account.provider);
  // The notice URL's token survives a key rotation (the URL registered at the provider keeps working);
  // an account made before tokens existed gets its first one here.
  let credentials = given;
  if (takesNoticeToken(adapter)) {
    credentials = withNoticeToken(given, (await currentCredentials(runtime, account))[NOTICE_TOKEN_FIELD] ?? null);
  }
  await verifyGatewayCredentials(adapter, { credentials, apiBaseUrl: account.apiBaseUrl }, runtime.wallClock.now());

  const sealed = Object.keys(credentials).length ? runtime.gateways.vault.seal(account.id, credentials) : null;
  const updated = await prisma.gatewayAccount.update({
    where: { id: account.id },
    data: { credentialsCiphertext: sealed, credentialHints: credentialHints(credentials), credentialsUpdatedAt: runtime.wallClock.now(), credentialsRefusedAt: null },
  });
  runtime.gateways.forgetCredentials(account.id);
  return updated;
}

/** The account's sealed credentials, or none when they cannot be opened (a key no longer held). */
function currentCredentials(runtime: GatewayAccountRuntime, account: Parameters<GatewayAccountRuntime["gateways"]["credentials"]>[0]): Promise<Record<string, string>> {
  return runtime.gateways.credentials(account).then(
    (c) => c.credentials,
    (err: unknown) => {
      if (err instanceof CredentialsUnavailable) return {};
      throw err;
    },
  );
}
