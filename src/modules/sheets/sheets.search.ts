import { sql, type CompiledQuery } from 'kysely';
import {
  countOwnedMatches,
  dialectOf,
  hasShortTerm,
  indexedContainsAllTerms,
  ownedKey,
  rankedMatchKeys,
  rowKey,
  searchIndexGeneration,
  SHEETS_SEARCH,
  type PlanOptions,
} from '../../db/dialect.js';
import { sqliteReaders } from '../../db/sqlite-readers.js';
import type { Db } from '../../db/types.js';
import type { SheetListFilter } from './sheets.repo.js';
import { SHEET_ROW_COLUMNS, type SheetRow } from './sheets.view.js';

const rowColumns = sql.join(SHEET_ROW_COLUMNS.map((c) => sql.ref(`sheets.${c}`)));

export type SearchSort = 'relevance' | 'updated';

/**
 * `q` searches. The match set is materialized once with a relevance per row; the page is ordered by
 * it (or by updated_at) and the total counts the same set in the same statement. On SQLite the
 * statement runs on a read-only connection in a worker thread (src/db/sqlite-readers.ts): a word
 * found in most sheets takes tens of milliseconds or more, and on the main connection every other
 * request would wait for it. Only the planning (a few rows of the trigram vocabulary) runs here.
 */
export async function searchSheets(db: Db, f: SheetListFilter & { sort?: SearchSort }): Promise<{ rows: SheetRow[]; total: number }> {
  if (dialectOf(db) !== 'sqlite' || !hasShortTerm(f.terms)) return searchOnce(db, f);
  // A 1-2 character term is planned from the index's vocabulary, read before the statement runs on
  // a reader thread. If the indexer moved rows from the queue into the index in between, the plan may
  // leave out just those rows (neither queued any more nor holding a trigram the plan knew): search
  // again, and the last time with the short terms by LIKE, which reads no vocabulary.
  for (let attempt = 0; attempt < 2; attempt++) {
    const generation = searchIndexGeneration(db);
    const result = await searchOnce(db, f);
    if (searchIndexGeneration(db) === generation) return result;
  }
  return searchOnce(db, f, { shortTermsByLike: true });
}

async function searchOnce(db: Db, f: SheetListFilter & { sort?: SearchSort }, plan: PlanOptions = {}): Promise<{ rows: SheetRow[]; total: number }> {
  const key = rowKey(db);
  const keys = await rankedMatchKeys(db, SHEETS_SEARCH, f.terms, plan);
  const owner = { userId: f.userId, trashed: f.trashed };
  // By relevance the match set is narrowed to this owner's rows once, and both the page (rank, then
  // newest key) and the total come from it; only the page's rows are read. By last change every
  // matching row is read for its updated_at.
  const page =
    f.sort === 'updated'
      ? sql<SheetRow & { total: number }>`with m as materialized (${keys})
    select ${rowColumns}, (${countOwnedMatches(db, SHEETS_SEARCH, 'm', owner)}) as total from m join sheets on sheets.${sql.id(key)} = m.k
    where sheets.user_id = ${f.userId} and sheets.trashed_at ${f.trashed ? sql`is not` : sql`is`} null
    order by sheets.updated_at desc, sheets.id desc limit ${f.limit} offset ${f.offset}`
      : sql<SheetRow & { total: number }>`with m as materialized (select x.k, x.r from (${keys}) as x where ${ownedKey(db, SHEETS_SEARCH, 'x', owner)})
    select ${rowColumns}, (select count(*) from m) as total
    from (select m.k, m.r from m order by m.r desc, m.k desc limit ${f.limit} offset ${f.offset}) as p
    join sheets on sheets.${sql.id(key)} = p.k
    order by p.r desc, p.k desc`;
  const rows = await run(db, page.compile(db));
  if (rows.length > 0) return { rows: rows.map(({ total: _, ...row }) => row), total: Number(rows[0].total) };
  if (f.offset === 0 && f.limit > 0) return { rows: [], total: 0 };
  // Past the last page: the total on its own.
  const count = db
    .selectFrom('sheets')
    .where('user_id', '=', f.userId)
    .where('trashed_at', f.trashed ? 'is not' : 'is', null)
    .where(await indexedContainsAllTerms(db, SHEETS_SEARCH, f.terms, plan))
    .select((eb) => eb.fn.countAll().as('n'));
  const [{ n }] = await run(db, count.compile());
  return { rows: [], total: Number(n) };
}

async function run<R>(db: Db, query: CompiledQuery<R>): Promise<R[]> {
  const readers = sqliteReaders(db);
  return readers ? readers.all(query) : (await db.executeQuery(query)).rows;
}
