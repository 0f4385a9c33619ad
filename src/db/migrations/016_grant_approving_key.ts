import type { Kysely } from 'kysely';

/**
 * The API key that approved an OAuth grant (typed on the consent page, or the key behind the console
 * session used there), carried from the authorization code to the grant. Once that key is disabled or
 * expired the grant's tokens stop working. Grants approved before this migration have none and keep working.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_codes').addColumn('approved_by_key', 'text').execute();
  await db.schema.alterTable('oauth_grants').addColumn('approved_by_key', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_grants').dropColumn('approved_by_key').execute();
  await db.schema.alterTable('oauth_codes').dropColumn('approved_by_key').execute();
}
