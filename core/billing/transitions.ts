// Invoice status moves as data. An open invoice is paid, or voided (its subscription ended, a plan
// change's proration not applied). Paid and void are final: money approved on them is a surplus,
// refunded. UNCOLLECTIBLE exists in the schema but nothing writes it yet: no move reaches it.
import type { InvoiceStatus } from "../../generated/prisma/client.ts";
import type { StatusMachine } from "../shared/transition.ts";

export const INVOICE_TRANSITIONS: Record<InvoiceStatus, readonly InvoiceStatus[]> = {
  OPEN: ["PAID", "VOID"],
  PAID: [],
  VOID: [],
  UNCOLLECTIBLE: [],
};

export const INVOICE: StatusMachine<"invoice"> = {
  model: "invoice",
  table: "invoices",
  enumType: "InvoiceStatus",
  transitions: INVOICE_TRANSITIONS,
};
