// Operator: replaces a gateway account's credentials (a rotated or revoked provider key). The new ones
// are checked live with the provider first, then sealed under the current key (so an update also moves
// the account off an old key) and the hints follow.
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import type { GatewayAccountRuntime } from "./create-gateway-account.ts";
import { credentialHints, parseCredentials } from "./credential-rules.ts";
import { verifyGatewayCredentials } from "./verify-gateway-credentials.ts";

export interface UpdateGatewayAccountCredentialsInput {
  /** gwa_ id. */
  id: string;
  credentials: unknown;
}

export async function updateGatewayAccountCredentials(runtime: GatewayAccountRuntime, input: UpdateGatewayAccountCredentialsInput) {
  const prisma = runtime.db.prisma;
  const credentials = parseCredentials(input.credentials);
  if (!isId("gatewayAccount", input.id)) throw notFound("gateway account");
  const account = await prisma.gatewayAccount.findUnique({ where: { id: input.id } });
  if (!account) throw notFound("gateway account");
  const sandbox = account.provider === "sandbox";
  if (!sandbox && !Object.keys(credentials).length) throw new AppError("invalid_argument", { error: `credentials: a ${account.provider} account needs its credentials` });
  await verifyGatewayCredentials(runtime.gateways.adapter(account.provider), { credentials, apiBaseUrl: account.apiBaseUrl }, runtime.wallClock.now());

  const sealed = Object.keys(credentials).length ? runtime.gateways.vault.seal(account.id, credentials) : null;
  const updated = await prisma.gatewayAccount.update({
    where: { id: account.id },
    data: { credentialsCiphertext: sealed, credentialHints: credentialHints(credentials), credentialsUpdatedAt: runtime.wallClock.now() },
  });
  runtime.gateways.forgetCredentials(account.id);
  return updated;
}
