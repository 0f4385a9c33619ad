/**
 * The plans and what each allows: a leaf every layer may read (rate limits in http, webhook delivery,
 * services), so no folder imports a domain folder for it.
 */
export const PLANS = ['free', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];

/** Requests per minute per account, all of its keys together (spec: Limits). */
export const PLAN_LIMITS: Record<Plan, number> = { free: 30, pro: 100, business: 1000 };

/** Webhooks (subscribing, the test endpoint and every delivery) need a paying plan: Pro or Business. */
export const paidPlan = (plan: string) => plan === 'pro' || plan === 'business';
