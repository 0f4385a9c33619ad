import type { Kysely } from 'kysely';

/**
 * Keys and OAuth access restricted to one workspace (issue 33.5): an API key made with `workspace_id`,
 * and an OAuth grant whose consent picked a workspace (carried from its authorization code), reach only
 * that workspace's records. Null: every workspace of the account, as for every key and grant made before.
 * The column never changes after the row is written, so SQLite's auth generation need not follow it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('workspace_id', 'text').execute();
  await db.schema.alterTable('oauth_codes').addColumn('workspace_id', 'text').execute();
  await db.schema.alterTable('oauth_grants').addColumn('workspace_id', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
