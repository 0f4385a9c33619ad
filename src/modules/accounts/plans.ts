import type { Plan } from './accounts.repo.js';

/** Requests per minute per account, all of its keys together (spec: Limits). */
export const PLAN_LIMITS: Record<Plan, number> = { free: 30, pro: 100, business: 1000 };

/** Webhooks (subscribing, the test endpoint and every delivery) need a paying plan: Pro or Business. */
export const paidPlan = (plan: string) => plan === 'pro' || plan === 'business';
