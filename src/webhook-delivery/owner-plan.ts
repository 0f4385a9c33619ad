import { sql } from 'kysely';

/**
 * The plan that decides whether a webhook's deliveries are made, for a query where the webhook's
 * workspace is `workspaceRef`: the best plan among the workspace's owners (a personal workspace's one
 * owner is its account), so a team's webhooks run while one of its owners pays. Plain SQL both dialects run.
 */
export function ownerPlan(workspaceRef: string) {
  return sql<string>`(
    select ou.plan from workspace_members om inner join users ou on ou.id = om.user_id
    where om.workspace_id = ${sql.ref(workspaceRef)} and om.role = 'owner'
    order by case when ou.plan = 'free' then 1 else 0 end limit 1)`;
}
