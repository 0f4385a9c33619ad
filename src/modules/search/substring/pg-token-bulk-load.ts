import { sql } from 'kysely';
import { SHEET_TOKENS, TOKEN_CAP } from './pg-token-index.js';
import type { Db } from '../../../db/types.js';

/** The per-statement trigger of migration 022 that tokenizes inserted sheets. */
const INSERT_TRIGGER = 'sheet_tokens_insert';

/**
 * The token index (src/modules/search/substring/pg-token-index.ts) filled set-wise after a bulk load into an EMPTY database
 * (copy-to-postgres), instead of by its insert trigger batch by batch. The trigger tokenizes each
 * INSERT's sheets in the one connection writing them and grows the GIN index entry by entry: ~6 ms a
 * sheet on the bench machine, most of a 100,000-sheet copy. Here the insert trigger is off while the
 * sheets arrive; then the same tokenizer (the database's own sheet_tokens_of) fills sheet_tokens in
 * `parallel` statements on separate connections, the vocabulary is filled as migration 022 filled it,
 * and the indexes of both tables, dropped meanwhile, are built once from their own definitions
 * (pg_indexes), so they come back exactly as the migrations made them.
 *
 * `restore` re-enables the trigger and rebuilds any dropped index whatever happened; a copy that
 * failed before `fill` leaves sheets without tokens, so such a target is dropped, never served.
 */
export async function deferSheetTokens(db: Db) {
  const { table, vocab, tokenize } = SHEET_TOKENS;
  const indexes = (
    await sql<{ name: string; def: string; owner: string }>`select indexname as name, indexdef as def, tablename as owner from pg_indexes
      where schemaname = current_schema() and tablename in (${table}, ${vocab}) and indexname <> ${`${table}_pkey`}`.execute(db)
  ).rows;
  const [{ n }] = (await sql<{ n: string }>`select (select count(*) from ${sql.table(table)}) + (select count(*) from ${sql.table(vocab)}) as n`.execute(db)).rows;
  if (Number(n) > 0) throw new Error(`${table} is not empty: a deferred token index needs an empty database`);
  await sql`alter table sheets disable trigger ${sql.id(INSERT_TRIGGER)}`.execute(db);
  for (const { name } of indexes) await sql`drop index ${sql.id(name)}`.execute(db);
  let restored = false;

  /** The dropped indexes of `owner` that are not back yet, built side by side. */
  async function build(owner: string) {
    const left = new Set((await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${owner}`.execute(db)).rows.map((r) => r.name));
    await Promise.all(indexes.filter((ix) => ix.owner === owner && !left.has(ix.name)).map((ix) => sql.raw(ix.def).execute(db)));
  }

  async function restore() {
    if (restored) return;
    await Promise.all([build(table), build(vocab)]);
    await sql`alter table sheets enable trigger ${sql.id(INSERT_TRIGGER)}`.execute(db);
    restored = true;
  }

  return {
    async fill(parallel: number) {
      // Split by a hash of the id: every statement reads the sheets once but tokenizes only its share.
      // `offset 0` keeps the subquery from being pulled up: pulled up, `toks` was computed once per reference, three times a sheet.
      await Promise.all(
        Array.from({ length: parallel }, (_, k) =>
          sql`insert into ${sql.table(table)} (sheet_id, workspace_id, trashed, tokens, capped)
            select id, workspace_id, trashed, case when cardinality(toks) > ${TOKEN_CAP} then '{}' else toks end, cardinality(toks) > ${TOKEN_CAP}
            from (select id, workspace_id, trashed_at is not null as trashed, ${sql.id(tokenize)}(search_text) as toks from sheets
              where (hashtext(id) & 2147483647) % ${parallel} = ${k} offset 0) as x`.execute(db),
        ),
      );
      // The GIN build (the longest step) needs only sheet_tokens: the vocabulary fills beside it.
      const fillVocab = async () => {
        await sql`insert into ${sql.table(vocab)} (token) select distinct x.w from (select unnest(tokens) from ${sql.table(table)}) as x(w)
          where not exists (select 1 from ${sql.table(vocab)} as v where v.token = x.w)`.execute(db);
        await build(vocab);
      };
      await Promise.all([build(table), fillVocab()]);
      await restore();
      const counts = (await sql<{ sheets: string; tokens: string }>`select (select count(*) from sheets) as sheets, (select count(*) from ${sql.table(table)}) as tokens`.execute(db)).rows[0];
      if (counts.sheets !== counts.tokens) throw new Error(`the token index holds ${counts.tokens} of ${counts.sheets} sheets`);
    },
    restore,
  };
}
