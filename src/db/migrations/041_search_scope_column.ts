import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: the unified search's FTS5 table gains a fifth column, `scope`, holding each record's owner,
 * kind and project as words (bm25() weight 0, so they never rank). A search then filters inside the
 * full-text index (`scope : (...)` in the MATCH) instead of joining every match to search_docs: at
 * 100,000 records a common word's count fell from 32 ms to a few (bench/, docs/search.md).
 *
 * The FTS5 table is contentless, so its words cannot be copied into the new one: it is made anew,
 * search_docs emptied, and every record queued again for the application's indexer (as 038 did).
 *
 * PostgreSQL filters its GIN matches by columns already; it gains search_docs_recent, from which a
 * search whose every word is common finds the date after which an owner has its newest few thousand
 * records (an index-only scan), and ranks only the matches since then.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create index search_docs_recent on search_docs (owner_key, updated_at)`.execute(db);
    return;
  }
  await sql`drop table search_fts`.execute(db);
  await sql`create virtual table search_fts using fts5(title, err, meta, body, scope, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`.execute(db);
  await sql`delete from search_docs`.execute(db);
  await sql`delete from search_queue`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'sheet', id from sheets where trashed_at is null`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'session', id from sessions`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'knowledge', id from knowledge`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'todo', id from todos`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
