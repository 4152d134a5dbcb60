// Subscription mutations: changePlan, cancelPlanChange.
export {};
