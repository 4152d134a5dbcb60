// Operator: a tenant's gateway account: a provider's adapter, its credentials (checked live with the
// provider, then sealed with AES-256-GCM; only masked hints are kept in clear) and, for sandbox, its
// capability values.
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { capabilitiesSchema, GATEWAY_PROVIDERS } from "./capabilities.ts";
import { credentialHints, parseApiBaseUrl, parseCredentials } from "./credential-rules.ts";
import { insertGatewayAccount } from "./insert-gateway-account.ts";
import { takesNoticeToken, withNoticeToken } from "./notice-token.ts";
import { verifyGatewayCredentials } from "./verify-gateway-credentials.ts";

export { resolveGatewayAccount } from "./resolve-gateway-account.ts";

export interface CreateGatewayAccountInput {
  tenantId: string;
  /** Lower-case provider key: sandbox, stripe, pagarme, mercadopago. */
  provider: string;
  name: string;
  /** Sandbox only: partial capability record over the adapter's defaults. */
  capabilities?: unknown;
  /** The provider's credential fields; required for a real provider, optional for sandbox. */
  credentials?: unknown;
  /** Replaces the provider's base URL; only with GATEWAY_ALLOW_BASE_URL_OVERRIDE=true. */
  apiBaseUrl?: string | null;
}

export type GatewayAccountRuntime = Pick<Runtime, "db" | "gateways" | "config" | "wallClock">;

export async function createGatewayAccount(runtime: GatewayAccountRuntime, input: CreateGatewayAccountInput) {
  const prisma = runtime.db.prisma;
  const { provider } = input;
  if (!(GATEWAY_PROVIDERS as readonly string[]).includes(provider)) {
    throw new AppError("invalid_argument", { error: `unknown gateway provider; known: ${GATEWAY_PROVIDERS.join(", ")}` });
  }
  if (!runtime.gateways.has(provider)) throw new AppError("invalid_argument", { error: `this version has no ${provider} adapter yet` });
  const sandbox = provider === "sandbox";
  const adapter = runtime.gateways.adapter(provider);
  // Real providers have their own capability values; only the sandbox plays other gateways.
  const overrides = input.capabilities ?? {};
  if (!sandbox && Object.keys(overrides as object).length) {
    throw new AppError("invalid_argument", { error: "capabilities can be set for sandbox accounts only; real providers use their own" });
  }
  const parsed = capabilitiesSchema.partial().safeParse(overrides);
  if (!parsed.success) throw new AppError("invalid_argument", { error: "capabilities do not match the capability record" });
  const given = input.credentials === undefined || input.credentials === null ? {} : parseCredentials(input.credentials);
  if (!sandbox && !Object.keys(given).length) throw new AppError("invalid_argument", { error: `credentials: a ${provider} account needs its credentials` });
  // A provider that signs nothing gets the secret token of its notice URL (notice-token.ts).
  const credentials = takesNoticeToken(adapter) ? withNoticeToken(given) : given;
  const apiBaseUrl = parseApiBaseUrl(input.apiBaseUrl, runtime.config.allowGatewayBaseUrlOverride === true);

  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  if (await prisma.gatewayAccount.count({ where: { tenantId: input.tenantId, name: input.name } })) {
    throw new AppError("conflict", { error: `a gateway account named ${JSON.stringify(input.name)} exists in this tenant` });
  }
  // The live check, before anything is stored and outside any transaction (a provider call).
  await verifyGatewayCredentials(adapter, { credentials, apiBaseUrl }, runtime.wallClock.now());

  const id = newId("gatewayAccount");
  const now = runtime.wallClock.now();
  const sealed = Object.keys(credentials).length ? runtime.gateways.vault.seal(id, credentials) : null;
  return insertGatewayAccount(prisma, {
    id,
    tenantId: input.tenantId,
    provider,
    name: input.name,
    capabilities: { ...adapter.defaults, ...parsed.data } as Prisma.InputJsonValue,
    credentialsCiphertext: sealed,
    credentialHints: credentialHints(credentials),
    credentialsUpdatedAt: sealed ? now : null,
    apiBaseUrl,
  });
}
