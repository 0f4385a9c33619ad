import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Frozen as it landed (788a016): the names and the tokenizer's SQL text below are what
 * src/db/pg-token-index.ts produced then. CJK runs give 2-character pieces only; migration 026
 * redefines the function with 3-character pieces and the linear path for long runs and rebuilds the
 * tokens. Never import these from live code: a later change there would not reach a database that
 * already ran this migration.
 */
const SHEET_TOKENS = { table: 'sheet_tokens', vocab: 'sheet_token_vocab', tokenize: 'sheet_tokens_of', indexed: 'sheet_token_set' } as const;
const TOKENIZE_SQL = String.raw`select coalesce(array_agg(distinct tok), '{}') from (
    select substr(w[1], i, 64) as tok from regexp_matches(t, '([^\u0001-\u002f\u003a-\u0040\u005b-\u005e\u0060\u007b-\u00bf\u00d7\u00f7\u2000-\u206f\u3000-\u303f\ufeff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)', 'g') as m(w),
      generate_series(1, greatest(length(w[1]) - 32, 1), 32) as i
    union all
    select substr(c[1], i, 2) from regexp_matches(t, '([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)', 'g') as n(c),
      generate_series(1, greatest(length(c[1]) - 1, 1)) as i
  ) as x`;

/**
 * PostgreSQL: the token index searches use (src/db/pg-token-index.ts), replacing the pg_trgm index
 * on sheets.search_text, which could only nominate candidates and left every common word to a LIKE
 * over each text (~200 ms at 100,000 sheets). SQLite: nothing (FTS5 serves it, migration 008).
 *
 * - `sheet_tokens`: one row per sheet with its owner, state and tokens, GIN-indexed. Narrow on
 *   purpose (toast_tuple_target moves the token array out of line): a count visits its heap pages,
 *   3,000 at 100,000 sheets where the sheets table has 20,000.
 * - `sheet_token_vocab`: every token ever written (rows are never deleted: a token no sheet holds any
 *   more just matches nothing). No unique constraint: two writers adding the same new token both
 *   insert it rather than one waiting for the other's commit (or deadlocking with it), and the
 *   lookups take the union anyway.
 * - Triggers keep both in step with sheets inside the writing transaction, so a search sees a sheet
 *   and its tokens together. Deletes go by statement (transition table), inserts too (a bulk import
 *   tokenizes in one statement), updates by row when the text, owner or state changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const { table, vocab, tokenize, indexed } = SHEET_TOKENS;
  await sql`create function ${sql.id(tokenize)}(t text) returns text[] language sql immutable parallel safe as ${sql.lit(TOKENIZE_SQL)}`.execute(db);
  // plpgsql, so the planner cannot inline it away with its cost (see TOKEN_SET).
  await sql`create function ${sql.id(indexed)}(tokens text[]) returns text[] language plpgsql immutable strict parallel safe cost 100000
    as 'begin return tokens; end'`.execute(db);
  await sql`create table ${sql.table(table)} (sheet_id text primary key, user_id text not null, trashed boolean not null, tokens text[] not null)
    with (toast_tuple_target = 128)`.execute(db);
  await sql`create table ${sql.table(vocab)} (token text not null)`.execute(db);
  await sql`insert into ${sql.table(table)} select id, user_id, trashed_at is not null, ${sql.id(tokenize)}(search_text) from sheets`.execute(db);
  await sql`insert into ${sql.table(vocab)} select distinct unnest(tokens) from ${sql.table(table)}`.execute(db);
  await sql`create index sheet_tokens_owner on ${sql.table(table)} (user_id, trashed)`.execute(db);
  // A write adds its ~400 tokens to the index's pending list; the write that fills the list merges it
  // into the index. At the default 4 MB that merge held one POST for 100-200 ms: 256 kB merges more
  // often and less each time (POST at 50 connections: 735-743 -> 812 req/s, p99 99-129 -> 89 ms).
  await sql`create index sheet_tokens_gin on ${sql.table(table)} using gin (${sql.id(indexed)}(tokens)) with (gin_pending_list_limit = 256)`.execute(db);
  await sql`create index sheet_token_vocab_token on ${sql.table(vocab)} (token)`.execute(db);
  // pg_trgm (migration 008, when it could be created) lets a vocabulary lookup of 3+ characters skip the scan.
  const { rows } = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (rows.length > 0) await sql`create index sheet_token_vocab_trgm on ${sql.table(vocab)} using gin (token gin_trgm_ops)`.execute(db);
  await sql`drop index if exists sheets_search_trgm`.execute(db);

  /** `tokens`: a relation x(w) of tokens just written. */
  const addToVocab = (tokens: string) =>
    `insert into ${vocab} (token) select distinct x.w from ${tokens} where not exists (select 1 from ${vocab} as v where v.token = x.w);`;
  await sql`create function sheet_tokens_insert() returns trigger language plpgsql as $$ begin
    with added as (insert into ${sql.raw(table)} select id, user_id, trashed_at is not null, ${sql.raw(tokenize)}(search_text) from inserted returning tokens)
    ${sql.raw(addToVocab('(select unnest(tokens) from added) as x(w)'))}
    return null; end $$`.execute(db);
  await sql`create function sheet_tokens_delete() returns trigger language plpgsql as $$ begin
    delete from ${sql.raw(table)} where sheet_id in (select id from deleted); return null; end $$`.execute(db);
  await sql`create function sheet_tokens_update() returns trigger language plpgsql as $$
    declare toks text[];
    begin
      if old.search_text is distinct from new.search_text then
        toks := ${sql.raw(tokenize)}(new.search_text);
        update ${sql.raw(table)} set user_id = new.user_id, trashed = new.trashed_at is not null, tokens = toks where sheet_id = new.id;
        ${sql.raw(addToVocab('unnest(toks) as x(w)'))}
      else
        update ${sql.raw(table)} set user_id = new.user_id, trashed = new.trashed_at is not null where sheet_id = new.id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger sheet_tokens_insert after insert on sheets referencing new table as inserted
    for each statement execute function sheet_tokens_insert()`.execute(db);
  await sql`create trigger sheet_tokens_delete after delete on sheets referencing old table as deleted
    for each statement execute function sheet_tokens_delete()`.execute(db);
  await sql`create trigger sheet_tokens_update after update of search_text, user_id, trashed_at on sheets for each row
    when (old.search_text is distinct from new.search_text or old.user_id is distinct from new.user_id
      or (old.trashed_at is null) is distinct from (new.trashed_at is null))
    execute function sheet_tokens_update()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
