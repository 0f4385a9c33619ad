import { sql, type Kysely } from 'kysely';

/**
 * A webhook's maker (`created_by`, an account id): a team workspace's webhooks are owned by the workspace
 * (user_id holds its wsp_ id), so nothing said who made one. With the maker known, a member who leaves, is
 * removed or loses the admin role has their webhooks of that workspace disabled (docs/teams.md).
 *
 * A personal webhook's maker is its owner (user_id is the account's usr_ id): backfilled. A team webhook
 * made before this migration has no known maker and keeps null. Plain SQL both databases run alike.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column created_by text`.execute(db);
  await sql`update webhooks set created_by = user_id where substr(user_id, 1, 4) = 'usr_'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
