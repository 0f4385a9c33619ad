import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: sheet writes stop indexing their text themselves. The triggers of migration 008 wrote
 * every inserted or changed sheet's ~2,000 trigrams into sheets_fts inside the write's own
 * transaction (~1.1 ms of a ~3 ms POST, most of it at COMMIT); now they only queue the row in
 * sheets_fts_pending, and src/db/search-indexer.ts indexes the queue in batches shortly after the
 * commit. Searches stay exact meanwhile: queued rows are tested by LIKE (src/db/dialect.ts). A
 * deleted sheet still leaves the index at once. PostgreSQL: nothing (its GIN index is its own).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create table sheets_fts_pending (row_id integer primary key)`.execute(db);
  await sql`drop trigger sheets_fts_insert`.execute(db);
  await sql`drop trigger sheets_fts_update`.execute(db);
  await sql`drop trigger sheets_fts_delete`.execute(db);
  await sql`create trigger sheets_fts_insert after insert on sheets begin
    insert or ignore into sheets_fts_pending(row_id) values (new.rowid); end`.execute(db);
  await sql`create trigger sheets_fts_update after update of search_text on sheets begin
    insert or ignore into sheets_fts_pending(row_id) values (new.rowid); end`.execute(db);
  await sql`create trigger sheets_fts_delete after delete on sheets begin
    delete from sheets_fts where rowid = old.rowid;
    delete from sheets_fts_pending where row_id = old.rowid; end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
