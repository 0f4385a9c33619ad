import { sql, type Kysely } from 'kysely';
import { SHEET_TOKENS, TOKEN_CAP, VOCAB_LOCK } from './pg-token-index.js';
import { sheetTokensOf } from './pg-tokenize.js';

const { table, vocab, tokenize } = SHEET_TOKENS;
/**
 * Held by the background indexer of one process for each batch (`alone`): the indexers of other
 * processes find it taken and leave the backlog to it (their one-second sweep looks again). Each process
 * resting half the time would otherwise add up to a database core per process beside the writers: with
 * two processes POST fell to 0.44 of one process's rate.
 */
const INDEXER_LOCK = 290032;
/**
 * Texts up to this many characters are tokenized here (pg-tokenize.ts: ~19 µs for 650 characters,
 * where the database spent ~175 µs), up to BATCH_JS_CHARS of them a batch (~2 ms of the event loop);
 * the others by the database, so no text or batch holds the event loop long.
 */
const JS_TOKENIZE_MAX_CHARS = 16 * 1024;
const BATCH_JS_CHARS = 64 * 1024;
const SEPARATOR = '\u0001';

/**
 * PostgreSQL: tokenizes up to `limit` pending sheet_tokens rows (migration 032) in one transaction and
 * adds their new tokens to the vocabulary; returns how many.
 * - `cut` is materialized: inlined, its `toks` was computed once per reference, three tokenizings a sheet.
 * - The batch's tokens are made distinct before the vocabulary is probed (128 sheets: ~54,000 tokens, ~10,000 distinct).
 *
 * Safe beside writers and other processes: the rows are locked `skip locked`, so a row a writer is
 * changing is left for the next batch, and a writer that changes a row this batch holds waits for its
 * commit and then marks the row pending again. The text read is the one committed when the statement
 * began: a newer text is always followed by that writer's own `pending = true`.
 * VOCAB_LOCK is held shared, as writers held it, so a vocabulary pruner never deletes a token this
 * batch relies on (pg-token-vocab-prune.ts). `alone`: only if no other process's indexer holds
 * INDEXER_LOCK (else 0).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function indexPendingTokens(db: Kysely<any>, limit: number, opts: { alone?: boolean } = {}): Promise<number> {
  const { rows: any } = await sql`select 1 from ${sql.table(table)} where pending limit 1`.execute(db);
  if (any.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    if (opts.alone) {
      const { rows: lock } = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${INDEXER_LOCK}::bigint) as got`.execute(trx);
      if (!lock[0].got) return 0;
    }
    await sql`select pg_advisory_xact_lock_shared(${VOCAB_LOCK}::bigint)`.execute(trx);
    const { rows: batch } = await sql<{ id: string; text: string | null }>`with batch as (
        select sheet_id from ${sql.table(table)} where pending limit ${limit} for update skip locked)
      select s.id, case when length(s.search_text) <= ${JS_TOKENIZE_MAX_CHARS} then s.search_text end as text
        from sheets as s join batch as b on b.sheet_id = s.id`.execute(trx);
    if (batch.length === 0) return 0;
    // Tokens joined by U+0001, which no token holds (it ends every run); null: tokenized by the database.
    let budget = BATCH_JS_CHARS;
    const tokens = batch.map((r) => {
      if (r.text === null || r.text.length > budget) return null;
      budget -= r.text.length;
      return sheetTokensOf(r.text).join(SEPARATOR);
    });
    const { rows } = await sql<{ n: string }>`with given as (
        select g.id, g.joined from unnest(${batch.map((r) => r.id)}::text[], ${tokens}::text[]) as g(id, joined)),
      cut as materialized (select g.id, case when g.joined is null then ${sql.id(tokenize)}(s.search_text)
          else (select coalesce(array_agg(distinct x.w collate "C"), '{}') from unnest(string_to_array(g.joined, ${SEPARATOR})) as x(w)) end as toks
        from given as g join sheets as s on s.id = g.id),
      done as (update ${sql.table(table)} as t
        set tokens = case when cardinality(c.toks) > ${TOKEN_CAP} then '{}' else c.toks end, capped = cardinality(c.toks) > ${TOKEN_CAP}, pending = false
        from cut as c where t.sheet_id = c.id returning t.tokens),
      added as (insert into ${sql.table(vocab)} (token) select x.w from (select distinct unnest(tokens) from done) as x(w)
        where not exists (select 1 from ${sql.table(vocab)} as v where v.token = x.w))
      select count(*) as n from done`.execute(trx);
    return Number(rows[0].n);
  });
}

/** How many sheets wait to be tokenized, counted up to `cap` (a partial index scan: cheap however many wait). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function pendingTokenBacklog(db: Kysely<any>, cap: number): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from (select 1 from ${sql.table(table)} where pending limit ${cap}) as p`.execute(db);
  return Number(rows[0].n);
}
