// /pay/{token}: the token's link, with what the page needs, on the tenant's clock. Unknown tokens
// are 404, and so are a suspended tenant's; expired ones 410 link_expired; used ones (or whose invoice
// is already paid) 410 link_used.
// Only the SHA-256 of a token is stored, so the lookup hashes what the visitor brings.
import type { Runtime } from "../runtime.ts";
import { tenantClock } from "../shared/clock.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { sha256Hex } from "../shared/secrets.ts";
import { payPageMethods, type OfferPayMethods } from "./link-rules.ts";

export async function resolvePayLink(runtime: Runtime, token: string) {
  const prisma = runtime.db.prisma;
  if (!/^pl_[0-9A-Za-z]{20,64}$/.test(token)) throw notFound("link");
  const link = await prisma.link.findUnique({ where: { tokenHash: sha256Hex(token) } });
  if (!link) throw notFound("link");
  const tenant = await prisma.tenant.findUniqueOrThrow({ where: { id: link.tenantId }, select: { name: true, mode: true, clockAt: true, suspended: true } });
  // A suspended tenant takes no payment, as its checkout answers (get-checkout-offer): its links are unknown.
  if (tenant.suspended) throw notFound("link");
  const now = tenantClock(tenant, runtime.wallClock).now();
  if (link.status === "USED" || link.status === "PAID") throw new AppError("link_used");
  if (link.status === "EXPIRED" || link.status === "CANCELED" || (link.expiresAt && link.expiresAt.getTime() <= now.getTime())) throw new AppError("link_expired");
  const subscription = link.subscriptionId
    ? await prisma.subscription.findFirst({
        where: { id: link.subscriptionId, tenantId: link.tenantId },
        include: { plan: { select: { name: true } }, paymentMethod: true, offer: { include: { gatewayAccount: true } } },
      })
    : null;
  const invoice = link.invoiceId ? await prisma.invoice.findFirst({ where: { id: link.invoiceId, tenantId: link.tenantId } }) : null;
  if (link.kind === "OPEN_INVOICE" && invoice && invoice.status !== "OPEN") throw new AppError("link_used", { error: "esta fatura já foi paga" });
  const methods: OfferPayMethods = subscription ? payPageMethods(subscription.offer) : { card: true, pix: false, capturesCardOnlyOnPaymentPage: false };
  return { link, tenant: { name: tenant.name, mode: tenant.mode }, now, subscription, invoice, methods };
}

export type ResolvedPayLink = Awaited<ReturnType<typeof resolvePayLink>>;
