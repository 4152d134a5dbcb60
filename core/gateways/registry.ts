// The adapters one process knows, by provider key, plus the account lookup every call starts from.
import type { GatewayAccount, PrismaClient } from "../../generated/prisma/client.ts";
import type { GatewayAccountRef, GatewayAdapter } from "./adapter.ts";
import { capabilitiesSchema } from "./capabilities.ts";
import { SandboxAdapter } from "./sandbox-adapter.ts";

export interface Gateways {
  adapter(provider: string): GatewayAdapter;
  /** The sandbox adapter's own controls (Pix payment, chargebacks). */
  sandbox: SandboxAdapter;
}

export function createGateways(prisma: PrismaClient): Gateways {
  const sandbox = new SandboxAdapter(prisma);
  const adapters = new Map<string, GatewayAdapter>([[sandbox.provider, sandbox]]);
  return {
    sandbox,
    adapter(provider) {
      const adapter = adapters.get(provider);
      if (!adapter) throw new Error(`no gateway adapter for provider ${provider}`);
      return adapter;
    },
  };
}

export function accountRef(account: GatewayAccount): GatewayAccountRef {
  return {
    id: account.id,
    tenantId: account.tenantId,
    provider: account.provider,
    capabilities: capabilitiesSchema.parse(account.capabilities),
  };
}
