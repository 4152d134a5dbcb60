// Refund status moves as data: a pending refund gets the gateway's answer once (the request and the
// reconcile job may race; the second finds it settled).
import type { RefundStatus } from "../../generated/prisma/client.ts";
import type { StatusMachine } from "../shared/transition.ts";

export const REFUND_TRANSITIONS: Record<RefundStatus, readonly RefundStatus[]> = {
  PENDING: ["SUCCEEDED", "FAILED"],
  SUCCEEDED: [],
  FAILED: [],
};

export const REFUND: StatusMachine<"refund"> = {
  model: "refund",
  table: "refunds",
  enumType: "RefundStatus",
  transitions: REFUND_TRANSITIONS,
};
