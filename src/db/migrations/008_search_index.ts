import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Indexes sheets.search_text so `q` stops scanning every row (see docs/performance.md).
 *
 * SQLite: a contentless FTS5 table with the trigram tokenizer, keyed by sheets.rowid and kept in
 * step by triggers. It is case-sensitive because search_text and the terms are already
 * normalized, so a phrase query is exactly a substring test. Each text is indexed with two
 * U+0003 characters appended, so every occurrence of a one- or two-character term starts some
 * trigram; sheets_fts_terms (fts5vocab) lists those trigrams for the short-term path.
 *
 * PostgreSQL: a pg_trgm GIN index that serves the same LIKE queries, when the extension can be
 * created (it needs a superuser or a trusted-extension grant); without it searches still work,
 * only slower.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await sql`create virtual table sheets_fts using fts5(text, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`.execute(db);
    await sql`create virtual table sheets_fts_terms using fts5vocab(sheets_fts, 'row')`.execute(db);
    await sql`insert into sheets_fts(rowid, text) select rowid, search_text || char(3, 3) from sheets`.execute(db);
    await sql`create trigger sheets_fts_insert after insert on sheets begin
      insert into sheets_fts(rowid, text) values (new.rowid, new.search_text || char(3, 3)); end`.execute(db);
    await sql`create trigger sheets_fts_delete after delete on sheets begin
      delete from sheets_fts where rowid = old.rowid; end`.execute(db);
    await sql`create trigger sheets_fts_update after update of search_text on sheets begin
      delete from sheets_fts where rowid = old.rowid;
      insert into sheets_fts(rowid, text) values (new.rowid, new.search_text || char(3, 3)); end`.execute(db);
    return;
  }
  // A failed CREATE EXTENSION would abort the migration's transaction; the savepoint contains it.
  await sql`savepoint pg_trgm_setup`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index sheets_search_trgm on sheets using gin (search_text gin_trgm_ops)`.execute(db);
    await sql`release savepoint pg_trgm_setup`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm_setup`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
