import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../../../db/dialect.js';
import type { Owner } from '../../../db/types.js';
import { rankedMatchKeys } from './match.js';
import { pgCappedCandidates, pgOwnedMatchCount } from './pg-match.js';
import type { SearchIndex } from './search-index.js';

/**
 * PostgreSQL's steps before a ranked search, where its token index can answer without reading a text.
 * SQLite has no such index: both answer undefined there, and the ranked statement (or the reader
 * threads' count) settles the search.
 */

/**
 * PostgreSQL, by relevance: when the token index nominates at most `cap` of the owner's rows, their
 * page (`columns` of `index.table`) and total come from one statement that ranks them (not common by
 * the rule, which needs more matches than `cap`). Otherwise undefined, having read `cap` + 1 index
 * entries and no text: counting first and ranking after cost `kubernetes` (6,665 of 100,000 sheets) a
 * second pass over the index.
 */
export async function pgRankedIfFew<R extends { id: string }>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  db: Kysely<any>,
  index: SearchIndex,
  terms: string[],
  owner: Owner,
  cap: number,
  page: { limit: number; offset: number },
  columns: readonly string[],
): Promise<{ rows: R[]; total: number } | undefined> {
  if (dialectOf(db) !== 'postgres') return undefined;
  const candidates = pgCappedCandidates(terms, owner, cap);
  if (!candidates) return undefined;
  const keys = await rankedMatchKeys(db, index, terms, {}, owner, 'c');
  const table = sql.table(index.table);
  const rowColumns = sql.join(columns.map((c) => sql.ref(`${index.table}.${c}`)));
  const statement = sql<R & { candidates: string; total: string; rank: number | null }>`with c as materialized (${candidates}),
    n as (select count(*) as candidates from c),
    m as materialized (select x.k, x.r from (${keys}) as x where (select n.candidates from n) <= ${cap})
    select n.candidates, (select count(*) from m) as total, page.* from n left join (
      select ${rowColumns}, p.r as rank from (select m.k, m.r from m order by m.r desc, m.k desc limit ${page.limit} offset ${page.offset}) as p
      join ${table} on ${sql.ref(`${index.table}.id`)} = p.k) as page on true
    order by page.rank desc, page.id desc`;
  const { rows } = await db.executeQuery(statement.compile(db));
  if (Number(rows[0].candidates) > cap) return undefined;
  const found = rows.filter((row) => row.id !== null).map(({ candidates: _c, total: _t, rank: _r, ...row }) => row as unknown as R);
  return { rows: found, total: Number(rows[0].total) };
}

/**
 * PostgreSQL: how many of the owner's rows hold every term, counted before ranking: exact from the
 * token index, else (terms of separators alone, nothing to look up) by `byLike`, which may answer
 * undefined to leave it to the ranked statement's own total. SQLite: undefined.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function pgOwnedTotal(db: Kysely<any>, terms: string[], owner: Owner, byLike: () => Promise<number | undefined>): Promise<number | undefined> {
  if (dialectOf(db) !== 'postgres') return undefined;
  return (await pgOwnedMatchCount(db, terms, owner)) ?? (await byLike());
}
