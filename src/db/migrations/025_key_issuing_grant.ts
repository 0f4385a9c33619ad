import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The OAuth grant whose access token created an API key (keys:manage), or under which the creating key
 * was itself made. Authentication joins the grant and its approving key, so such a key ends the moment
 * its grant is revoked or the grant's approving key is disabled, instead of living on to its expiry.
 * Keys made before this migration, or by an API key outside any grant, record none.
 *
 * SQLite: a grant's status joins the things migration 019's auth generation follows, so keys kept in
 * memory are looked up again when a grant ends.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('issued_by_grant', 'text').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const bump = sql`update auth_generation set n = n + 1 where id = 1;`;
  await sql`create trigger oauth_grants_auth_update after update of status, approved_by_key on oauth_grants begin ${bump} end`.execute(db);
  await sql`create trigger oauth_grants_auth_delete after delete on oauth_grants begin ${bump} end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
