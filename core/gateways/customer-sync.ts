// Customer sync: the gateway keeps its own copy of the customer's name, e-mail and phone
// (receipts, Pix payer data, anti-fraud); an edit on our side is pushed to every gateway account
// the customer has used. Types only: the call is GatewayAdapter.updateCustomer.

export interface CustomerSyncRequest {
  /** Our cus_ id: the gateway's reference for the customer. */
  customerId: string;
  name: string;
  email: string;
  /** E.164 mobile; null only for an old customer edited through the e-mail route. */
  phone: string | null;
}

export type CustomerSyncResult = { ok: true } | { ok: false; detailCode: string };
