import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: the unified search's index (search_docs and the FTS5 table search_fts, migrations 038 and 041)
 * leaves the database file for the search index file beside it, where the sheets' `q` index already is
 * (migration 033). A thread of its own writes it, so a write's indexing no longer takes the event loop
 * nor the database file's write lock, WAL and checkpoints (decision 0013).
 *
 * Here the tables are dropped. The index file is versioned by the application, not migrated: at the
 * next start it is made again with these tables, and every record is queued again for them.
 *
 * PostgreSQL keeps search_docs as it is.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop table search_fts`.execute(db);
  await sql`drop table search_docs`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
