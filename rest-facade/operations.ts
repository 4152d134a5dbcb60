// The GraphQL documents the facade sends, one .graphql file per route, loaded once.
import fs from "node:fs";

/** One operation document, read once at module load (route files may load their own). */
export const loadOperation = (name: string) => fs.readFileSync(new URL(`./operations/${name}.graphql`, import.meta.url), "utf8");
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
