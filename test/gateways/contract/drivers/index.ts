// Every provider the contract suite runs: the sandbox and each provider's local fake. A new provider
// adds its driver here (docs/guides/add-a-provider.md).
import type { ProviderDriver } from "../driver.ts";
import { mercadopago } from "./mercadopago.ts";
import { pagarme } from "./pagarme.ts";
import { sandbox } from "./sandbox.ts";
import { stripe } from "./stripe.ts";

export const DRIVERS: ProviderDriver[] = [sandbox, stripe, pagarme, mercadopago];
