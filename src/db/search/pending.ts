import { sql, type Kysely } from 'kysely';
import { hasShortTerm } from '../../lib/search-text.js';
import { dialectOf } from '../dialect.js';
import { transactionAlone } from '../group-commit.js';
import type { Db } from '../types.js';
import type { PlanOptions } from './plan.js';
import type { SearchIndex } from './search-index.js';

/**
 * SQLite: brings the FTS index up to date for up to `limit` queued rows, oldest first, in one write
 * transaction; returns how many. Writes only queue their row (migration 018): indexing a 2 KB text
 * alone cost ~1.1 ms, most of a POST's time, and ~0.35 ms per row in batches of 32.
 */
export async function indexPendingRows(db: Kysely<any>, index: SearchIndex, limit: number, maxChars = 256 * 1024): Promise<number> {
  const queued = sql.table(index.pending);
  const { rows: any } = await sql`select 1 from ${queued} limit 1`.execute(db);
  if (any.length === 0) return 0;
  const indexed = await transactionAlone(db as Db, async (trx) => {
    const { rows } = await sql<{ row_id: number; chars: number }>`select p.row_id, length(t.search_text) as chars from ${queued} as p
      cross join ${sql.table(index.table)} as t on t.rowid = p.row_id order by p.row_id limit ${limit}`.execute(trx);
    if (rows.length === 0) return 0;
    // FTS5 holds a transaction's trigrams in memory until COMMIT: 32 queued 1 MB texts took the RSS
    // past 700 MB. So a batch also stops at `maxChars` of text (one row at least).
    let take = 1;
    for (let chars = Number(rows[0].chars); take < rows.length && (chars += Number(rows[take].chars)) <= maxChars; ) take++;
    const last = rows[take - 1].row_id;
    const fts = sql.table(index.fts);
    await sql`delete from ${fts} where rowid in (select row_id from ${queued} where row_id <= ${last})`.execute(trx);
    // CROSS JOIN keeps the queue as the outer loop: with a plain join SQLite walked the table's rowids up to `last`.
    await sql`insert into ${fts}(rowid, text) select t.rowid, t.search_text || char(3, 3) from ${queued} as p
      cross join ${sql.table(index.table)} as t on t.rowid = p.row_id where p.row_id <= ${last}`.execute(trx);
    await sql`delete from ${queued} where row_id <= ${last}`.execute(trx);
    return take;
  });
  if (indexed > 0) indexGenerations.set(db, searchIndexGeneration(db) + 1);
  return indexed;
}

const indexGenerations = new WeakMap<Kysely<any>, number>();

/**
 * Counts the indexer's commits on `db` (rows moved from the queue into the index). A search whose plan
 * read the index's vocabulary (a 1-2 character term) is valid only if none came between that read and
 * its statement: see searchSheets.
 */
export function searchIndexGeneration(db: Kysely<any>): number {
  return indexGenerations.get(db) ?? 0;
}

/**
 * Runs `search` so that it sees every matching row. On SQLite a 1-2 character term is planned from the
 * index's vocabulary, read before the statement runs on a reader thread. If the indexer moved rows from
 * the queue into the index in between, the plan may leave out just those rows (neither queued any more
 * nor holding a trigram the plan knew): search again, and the last time with the short terms by LIKE,
 * which reads no vocabulary. Other searches (PostgreSQL, no short term) run once.
 */
export async function withStableVocabulary<T>(db: Kysely<any>, terms: string[], search: (plan: PlanOptions) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite' || !hasShortTerm(terms)) return search({});
  for (let attempt = 0; attempt < 2; attempt++) {
    const generation = searchIndexGeneration(db);
    const result = await search({});
    if (searchIndexGeneration(db) === generation) return result;
  }
  return search({ shortTermsByLike: true });
}
