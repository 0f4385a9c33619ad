import { sql } from 'kysely';

/**
 * The plan that decides whether a webhook's deliveries are made, for a query where the webhook's owner
 * key is `keyRef` and `users` is LEFT joined on it (`planRef`): an account's own plan for a personal
 * webhook; for a team workspace's webhook (key wsp_..., no user row) the best plan among the workspace's
 * owners, so its webhooks run while one of its owners pays. Plain SQL both dialects run.
 */
export function ownerPlan(planRef: string, keyRef: string) {
  return sql<string>`coalesce(${sql.ref(planRef)}, (
    select ou.plan from workspace_members om inner join users ou on ou.id = om.user_id
    where om.workspace_id = ${sql.ref(keyRef)} and om.role = 'owner'
    order by case when ou.plan = 'free' then 1 else 0 end limit 1))`;
}
