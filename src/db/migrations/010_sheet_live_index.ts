import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite only: a partial index of each account's live sheets, (user_id, rowid) where trashed_at is
 * null. A search total checks each FTS hit against it (countOwnedMatches in dialect.ts), and its
 * entries are about half the size of the list index's, so the check costs a third less. PostgreSQL
 * counts its trigram hits through the primary key; it needs nothing new.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.createIndex('sheets_live_owner').on('sheets').column('user_id').where(sql.ref('trashed_at'), 'is', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sheets_live_owner').ifExists().execute();
}
