import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: the FTS index moves out of the database file into a file of its own, written by a worker
 * thread (src/db/search/index-file.ts). In this file it shared the one write lock with every write,
 * and indexing a sheet's trigrams (~40 µs a row, most of it at COMMIT) ran on the event loop, a
 * quarter of a POST's time there (docs/performance.md, twentieth pass).
 *
 * Here stays the queue of rows whose index entry is stale, now in the order they were queued:
 * `seq` only grows (AUTOINCREMENT: a deleted last seq is never handed out again), so the index file
 * can record how far it got as one number, and this file drops the queue up to that number after
 * the index committed. A row queued again moves to a new seq; a deleted sheet is queued too (its
 * entry leaves the index the same way). The queue starts empty: an index file that does not match
 * this database (none yet, after this migration) is rebuilt at start, all sheets queued.
 * PostgreSQL: nothing (its token index is its own).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['sheets_fts_insert', 'sheets_fts_update', 'sheets_fts_delete']) await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await sql`drop table sheets_fts_pending`.execute(db);
  await sql`drop table sheets_fts_terms`.execute(db);
  await sql`drop table sheets_fts`.execute(db);
  await sql`create table sheets_search_queue (seq integer primary key autoincrement, row_id integer not null unique)`.execute(db);
  // Which database the index file was built from: a copy of another database in its place gets a new index.
  await sql`create table search_index_origin (id text not null)`.execute(db);
  await sql`insert into search_index_origin (id) values (lower(hex(randomblob(16))))`.execute(db);
  const requeue = (row: 'new' | 'old') => sql.raw(`delete from sheets_search_queue where row_id = ${row}.rowid;
    insert into sheets_search_queue (row_id) values (${row}.rowid);`);
  await sql`create trigger sheets_search_insert after insert on sheets begin ${requeue('new')} end`.execute(db);
  await sql`create trigger sheets_search_update after update of search_text on sheets begin ${requeue('new')} end`.execute(db);
  await sql`create trigger sheets_search_delete after delete on sheets begin ${requeue('old')} end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
