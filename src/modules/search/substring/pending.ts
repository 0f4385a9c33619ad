import { sql, type Kysely } from 'kysely';
import { hasShortTerm } from './search-text.js';
import { dialectOf } from '../../../db/dialect.js';
import { transactionAlone } from '../../../db/sqlite/group-commit.js';
import type { Db } from '../../../db/types.js';
import type { PlanOptions } from './plan.js';
import type { SearchIndex } from './search-index.js';

/**
 * SQLite: drops the queue's rows up to `mark` once the index file holds them (sqlite-index-file.ts), in a
 * short transaction of the database's own. Searches then read those rows from the index.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function forgetIndexedRows(db: Kysely<any>, index: SearchIndex, mark: number): Promise<void> {
  await transactionAlone(db as Db, (trx) => sql`delete from ${sql.table(index.pending)} where seq <= ${mark}`.execute(trx));
  indexGenerations.set(db, searchIndexGeneration(db) + 1);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- keyed by any Kysely instance (a Kysely<Database> is not a Kysely<unknown>)
const indexGenerations = new WeakMap<Kysely<any>, number>();

/**
 * Counts the times rows left the queue of `db` for the index. A search whose plan
 * read the index's vocabulary (a 1-2 character term) is valid only if none came between that read and
 * its statement: see searchOwnedList.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
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
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function withStableVocabulary<T>(db: Kysely<any>, terms: string[], search: (plan: PlanOptions) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite' || !hasShortTerm(terms)) return search({});
  for (let attempt = 0; attempt < 2; attempt++) {
    const generation = searchIndexGeneration(db);
    const result = await search({});
    if (searchIndexGeneration(db) === generation) return result;
  }
  return search({ shortTermsByLike: true });
}
