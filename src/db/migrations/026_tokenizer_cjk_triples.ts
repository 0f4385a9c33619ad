import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: the tokenizer of migration 022 as src/db/pg-token-index.ts writes it today (6162544:
 * CJK runs give 3-character pieces too, tokens deduplicated under "C"; 21a7aeb: runs past 1,024
 * characters cut in one pass), and every sheet's tokens rebuilt with it. Migration 022 used to import
 * the SQL text from live code, so a database migrated before those changes kept the 2-character
 * tokenizer while the search planner looked for 3-character tokens: a CJK word of 3+ characters
 * (議事録) matched nothing there. Redefining and rebuilding ends every database, whatever version
 * migrated it, with today's tokens. The vocabulary only gains rows (see 022: tokens no sheet holds
 * just match nothing). The GIN index is built again, with the 256 kB pending list 022 gained after it
 * landed. Time: 20,000 sheets of ~1,400 characters took 90 s on a 2-core machine under a load of 17
 * (200 s when the rows were updated in place).
 *
 * Frozen text: a later tokenizer change is a new migration, never an edit here.
 */
const TOKENIZE_SQL = String.raw`with w as (select m.w[1] as run, m.r from regexp_matches(t, '([^\u0001-\u002f\u003a-\u0040\u005b-\u005e\u0060\u007b-\u00bf\u00d7\u00f7\u2000-\u206f\u3000-\u303f\ufeff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)', 'g') with ordinality as m(w, r)),
    c as (select n.c[1] as run, n.r from regexp_matches(t, '([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)', 'g') with ordinality as n(c, r))
  select coalesce(array_agg(distinct tok collate "C"), '{}') from (
    select substr(w.run, i, 64) as tok from w, generate_series(1, greatest(length(w.run) - 32, 1), 32) as i
      where length(w.run) <= 1024
    union all
    select q.p[1] || coalesce(lead(q.p[1]) over (partition by w.r order by q.k), '')
      from w, regexp_matches(w.run, '(.{1,32})', 'g') with ordinality as q(p, k) where length(w.run) > 1024
    union all
    select substr(c.run, i, n) from c, generate_series(1, greatest(length(c.run) - 1, 1)) as i, (values (2), (3)) as widths(n)
      where length(c.run) <= 1024
    union all
    select unnest(array[u.ch || coalesce(lead(u.ch) over g, ''), u.ch || coalesce(lead(u.ch) over g, '') || coalesce(lead(u.ch, 2) over g, '')])
      from c, regexp_split_to_table(c.run, '') with ordinality as u(ch, k) where length(c.run) > 1024
      window g as (partition by c.r order by u.k)
  ) as x`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create or replace function sheet_tokens_of(t text) returns text[] language sql immutable parallel safe as ${sql.lit(TOKENIZE_SQL)}`.execute(db);
  // Rebuilt rather than updated in place: updating each row rewrote it and fed the GIN index's
  // pending list row by row, at several times the cost of building the index once over new rows.
  await sql`drop index sheet_tokens_gin`.execute(db);
  await sql`truncate sheet_tokens`.execute(db);
  await sql`insert into sheet_tokens select id, user_id, trashed_at is not null, sheet_tokens_of(search_text) from sheets`.execute(db);
  await sql`insert into sheet_token_vocab (token) select distinct x.w from (select unnest(tokens) from sheet_tokens) as x(w)
    where not exists (select 1 from sheet_token_vocab as v where v.token = x.w)`.execute(db);
  await sql`create index sheet_tokens_gin on sheet_tokens using gin (sheet_token_set(tokens)) with (gin_pending_list_limit = 256)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
