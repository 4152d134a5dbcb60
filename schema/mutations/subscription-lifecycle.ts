// Subscription mutations: cancelSubscription, undoCancelSubscription, rescheduleSubscription, removeCoupon.
export {};
