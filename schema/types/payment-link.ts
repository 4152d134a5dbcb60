// PaymentLink: a public /pay link to pay an open invoice or a pending order, with its Pix QR.
import type { getOrderPaymentLink } from "../../core/links/get-order-payment-link.ts";
import { builder } from "../builder.ts";

type PaymentLinkResult = Awaited<ReturnType<typeof getOrderPaymentLink>>;
type PixResult = NonNullable<PaymentLinkResult["pix"]>;

const PixChargeRef = builder.objectRef<PixResult>("PixCharge").implement({
  description: "A Pix QR to pay: the copy-and-paste code and its image.",
  fields: (t) => ({
    copyPaste: t.exposeString("copyPaste", { description: "Pix copia e cola (BR Code payload)." }),
    qrPngUrl: t.exposeString("qrPngUrl", { description: "Address of the QR image (PNG)." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the QR stops being payable." }),
  }),
});

export const PaymentLinkRef = builder.objectRef<Omit<PaymentLinkResult, "method" | "pix"> & { method: string; pix: PixResult | null }>("PaymentLink").implement({
  description: "A public /pay link (and the Pix QR when Pix is taken) to pay an open invoice or a pending order. Never exposes an internal id.",
  fields: (t) => ({
    url: t.exposeString("url", { description: "The public /pay/{token} address." }),
    status: t.exposeString("status", { description: "Link status: open." }),
    amountCents: t.exposeInt("amountCents", { description: "Amount to pay in cents." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    method: t.exposeString("method", { description: "pix or card: how the page collects." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the link stops working." }),
    pix: t.field({ type: PixChargeRef, nullable: true, description: "The Pix QR; null when the page takes a card.", resolve: (l) => l.pix }),
  }),
});
