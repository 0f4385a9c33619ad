import type { Kysely } from 'kysely';

/**
 * Sessions a client saves under its own reference (Claude Code's session id, `cc:<id>`), so saving the
 * same session again updates it instead of adding a second record. The unique index is what makes
 * concurrent saves of one reference converge on one row (INSERT ... ON CONFLICT DO NOTHING on both
 * dialects); sessions without a reference keep external_id null, which never conflicts.
 * updated_at stays null until a session is first changed after its creation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('external_id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('updated_at', 'text').execute();
  await db.schema.createIndex('sessions_external_id').unique().on('sessions').columns(['user_id', 'external_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
