// Every status machine of the money core, in one list: the trigger generator and the pair tests walk it.
import { INVOICE } from "../billing/transitions.ts";
import { ORDER } from "../orders/transitions.ts";
import { PAYMENT } from "../payments/transitions.ts";
import { REFUND } from "../refunds/transitions.ts";
import { SUBSCRIPTION } from "../subscriptions/transitions.ts";
import type { StatusMachine, StatusModel } from "./transition.ts";

export const STATUS_MACHINES: readonly StatusMachine<StatusModel>[] = [SUBSCRIPTION, INVOICE, PAYMENT, ORDER, REFUND] as unknown as StatusMachine<StatusModel>[];
