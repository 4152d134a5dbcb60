// The GraphQL documents the facade sends (contract/operations/, one .graphql file per route), loaded once.
import { loadOperation } from "../contract/trusted-operations.ts";

/** Route files may load their own documents, once at module load. */
export { loadOperation };
const load = loadOperation;

export const ops = {
  listSubscriptions: load("list-subscriptions"),
  getSubscription: load("get-subscription"),
  listSubscriptionGatewayEvents: load("list-subscription-gateway-events"),
  getSubscriptionPaymentLink: load("get-subscription-payment-link"),
  getEntitlements: load("get-entitlements"),
  getReferralLink: load("get-referral-link"),
  listCustomerSubscriptions: load("list-customer-subscriptions"),
  listCustomerPayments: load("list-customer-payments"),
  getPayment: load("get-payment"),
  listEvents: load("list-events"),
  updateCustomerEmail: load("update-customer-email"),
  updateCustomer: load("update-customer"),
};
