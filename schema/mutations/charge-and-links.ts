// Subscription mutations: chargeNow, createPaymentMethodLink, createRenewalLink.
export {};
