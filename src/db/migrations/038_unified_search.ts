import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The unified search (issue 55, GET /v1/search, src/modules/search): one index over sheets (handovers
 * included), sessions, solutions, snippets and todos.
 *
 * - search_docs: one row per indexed record: its kind, id, owner key (the record's user_id: an
 *   account or a team workspace), project, title and updated_at, so a search filters by reach, kind
 *   and project in the index itself. SQLite: the words live in the FTS5 table search_fts (rowid =
 *   doc_id; columns title, err, meta, body weighted by bm25()). PostgreSQL: in the tsvector column
 *   tsv (weights A-D for the same four fields) behind a GIN index.
 * - search_queue: what changed and is not indexed yet (kind, record id), filled by triggers on every
 *   write of the record tables, whoever writes them. The application tokenizes (stems, splits
 *   identifiers, CJK pieces: src/modules/search/search.tokenize.ts) and drains the queue after each
 *   commit and before each search, so a search finds what was written before it.
 * - Backfill: every existing record is queued here; the application indexes the queue at start.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
  await sql`insert into search_queue (kind, record_id) select 'sheet', id from sheets where trashed_at is null`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'session', id from sessions`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'knowledge', id from knowledge`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'todo', id from todos`.execute(db);
}

/** Table -> [queue kind, key column, columns whose update re-indexes the record (all when empty)]. */
const WATCHED: [string, string, string, string[]][] = [
  ['sheets', 'sheet', 'id', ['title', 'search_text', 'tags', 'folder', 'trashed_at', 'user_id']],
  ['handovers', 'sheet', 'handover_id', ['project']],
  ['sessions', 'session', 'id', []],
  ['knowledge', 'knowledge', 'id', []],
  ['todos', 'todo', 'id', []],
];

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_queue (seq integer primary key autoincrement, kind text not null, record_id text not null)`.execute(db);
  await sql`create table search_docs (
    doc_id integer primary key, kind text not null, record_id text not null, owner_key text not null,
    project text, title text not null, updated_at text not null)`.execute(db);
  await sql`create unique index search_docs_record on search_docs (record_id, kind)`.execute(db);
  await sql`create index search_docs_owner on search_docs (owner_key, kind)`.execute(db);
  await sql`create virtual table search_fts using fts5(title, err, meta, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`.execute(db);
  for (const [table, kind, key, columns] of WATCHED) {
    const of = columns.length > 0 ? ` of ${columns.join(', ')}` : '';
    for (const [event, row] of [['insert', 'new'], [`update${of}`, 'new'], ['delete', 'old']]) {
      const name = `search_queue_${table}_${event.split(' ')[0]}`;
      await sql
        .raw(`create trigger ${name} after ${event} on ${table} begin insert into search_queue (kind, record_id) values ('${kind}', ${row}.${key}); end`)
        .execute(db);
    }
  }
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_queue (seq bigserial primary key, kind text not null, record_id text not null)`.execute(db);
  await sql`create table search_docs (
    kind text not null, record_id text not null, owner_key text not null, project text, title text not null,
    updated_at text not null, tsv tsvector not null, primary key (record_id, kind))`.execute(db);
  await sql`create index search_docs_owner on search_docs (owner_key, kind)`.execute(db);
  await sql`create index search_docs_tsv on search_docs using gin (tsv)`.execute(db);
  for (const [table, kind, key, columns] of WATCHED) {
    await sql
      .raw(`create or replace function search_queue_${table}() returns trigger language plpgsql as $$ begin
        if tg_op = 'DELETE' then insert into search_queue (kind, record_id) values ('${kind}', old.${key});
        else insert into search_queue (kind, record_id) values ('${kind}', new.${key}); end if;
        return null; end $$`)
      .execute(db);
    const of = columns.length > 0 ? ` of ${columns.join(', ')}` : '';
    await sql
      .raw(`create trigger search_queue_${table} after insert or update${of} or delete on ${table} for each row execute function search_queue_${table}()`)
      .execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
