// A tokenized card becomes a customer's payment method: only the gateway token, brand, last4 and
// expiry are kept (never the number or CVC). `detached` keeps it off the subscription until a charge approves it.
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import type { TokenizeResult } from "../gateways/adapter.ts";
import { newId } from "../shared/ids.ts";

export function saveCard(
  db: PrismaClient | Prisma.TransactionClient,
  input: { tenantId: string; customerId: string; gatewayAccountId: string; token: Extract<TokenizeResult, { ok: true }>; detachedAt?: Date },
) {
  const { token } = input;
  return db.paymentMethod.create({
    data: {
      id: newId("paymentMethod"),
      tenantId: input.tenantId,
      customerId: input.customerId,
      gatewayAccountId: input.gatewayAccountId,
      token: token.token,
      brand: token.brand,
      last4: token.last4,
      expMonth: token.expMonth,
      expYear: token.expYear,
      ...(input.detachedAt ? { detachedAt: input.detachedAt } : {}),
    },
  });
}
