// Order status moves as data. A pending order is paid (card, its Pix QR) or canceled (its one card
// attempt refused); a paid order is refunded (total refund or chargeback). EXPIRED exists in the
// schema but nothing writes it yet: no move reaches it.
import type { OrderStatus } from "../../generated/prisma/client.ts";
import type { StatusMachine } from "../shared/transition.ts";

export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  PENDING: ["PAID", "CANCELED"],
  PAID: ["REFUNDED"],
  REFUNDED: [],
  CANCELED: [],
  EXPIRED: [],
};

export const ORDER: StatusMachine<"order"> = {
  model: "order",
  table: "orders",
  enumType: "OrderStatus",
  transitions: ORDER_TRANSITIONS,
};
