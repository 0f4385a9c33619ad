import { sql, type Kysely, type RawBuilder } from 'kysely';
import { containsAllTerms } from './contains.js';
import { planTerms, tableSizeEstimate, type PlanOptions, type TermPlan } from './plan.js';
import { ftsColumn, type SearchIndex } from './search-index.js';

/**
 * SQLite: the keys (k) and relevance (r) of the rows holding every term, for a plan with a MATCH. Two
 * disjoint parts: the FTS hits of rows indexed as they are now (pending rows left out: the index
 * may hold their old text), and the pending rows themselves, tested by LIKE (the queue is short:
 * the indexer empties it after each write).
 */
export function sqliteMatchKeys(index: SearchIndex, plan: TermPlan, terms: string[], ranked: boolean, range: RowidRange = {}): RawBuilder<{ k: unknown; r: number }> {
  const column = sql.ref(`f.${ftsColumn(index)}`);
  const pendingKeys = sql`select row_id from ${sql.table(index.pending)}`;
  const relevance = ranked && plan.like.length === 0 ? sql`-bm25(${column})` : sql`0`;
  // The unary plus keeps SQLite from handing the NOT IN list to the FTS table as a rowid constraint.
  let indexed = sql`select f.rowid as k, ${relevance} as r from ${sql.table(index.fts)} as f where ${column} match ${plan.match} and +f.rowid not in (${pendingKeys})${inRange('f.rowid', range)}`;
  if (plan.like.length > 0) {
    indexed = sql`select i.k, i.r from (${indexed}) as i join ${sql.table(index.table)} as t on t.rowid = i.k where ${containsAllTerms('t.search_text', plan.like)}`;
  }
  // CROSS JOIN: the queue is the outer loop (SQLite may otherwise scan the table for the LIKE).
  const pending = sql<{ k: unknown; r: number }>`select t.rowid as k, 0 as r from ${sql.table(index.pending)} as p cross join ${sql.table(index.table)} as t on t.rowid = p.row_id
    where ${containsAllTerms('t.search_text', terms)}${inRange('p.row_id', range)}`;
  return plan.indexMisses ? pending : sql<{ k: unknown; r: number }>`${indexed} union all ${pending}`;
}

/** A slice of a table's rowids: from <= rowid < to; a missing bound is open. */
export interface RowidRange {
  from?: number;
  to?: number;
}

/**
 * The bounds are cast: better-sqlite3 binds a JavaScript number as a REAL, and FTS5 then reads every
 * match and compares instead of seeking its index to the range (`migration`'s first half: 33 ms, as
 * long as the whole table, against 17 with an integer bound).
 */
function inRange(column: string, { from, to }: RowidRange) {
  const ref = sql.ref(column);
  const lower = from === undefined ? sql`` : sql` and ${ref} >= cast(${from} as integer)`;
  const upper = to === undefined ? sql`` : sql` and ${ref} < cast(${to} as integer)`;
  return sql`${lower}${upper}`;
}

/** A search's term plan and the rowid ranges its parts cover: planned once, then used by every statement of the search. */
export interface PlannedParts {
  plan: TermPlan;
  ranges: RowidRange[];
}

/**
 * SQLite: plans `terms` once and splits the table into `parts` disjoint rowid ranges that together
 * cover it, the last one open-ended (a row inserted meanwhile falls in it). Counting a word found in
 * most rows takes tens of milliseconds; the parts run on separate reader threads at once.
 */
export async function planParts(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  db: Kysely<any>,
  index: SearchIndex,
  terms: string[],
  parts: number,
  opts: PlanOptions = {},
): Promise<PlannedParts> {
  const plan = await planTerms(db, index, terms, opts);
  const rowidCeiling = await tableSizeEstimate(db, index);
  const step = Math.ceil((rowidCeiling + 1) / parts);
  const ranges = Array.from({ length: parts }, (_, i): RowidRange => ({ from: i === 0 ? undefined : i * step, to: i === parts - 1 ? undefined : (i + 1) * step }));
  return { plan, ranges };
}

/**
 * The keys (column k) of the rows holding every term, one subquery per planned range. The FTS index
 * takes the rowid bounds as a range of its own. `ranked`: each key with its relevance (column r), as
 * sqliteMatchKeys gives it; a row's bm25 is the same in any part (FTS5 reads the idf and the mean
 * length from the whole index).
 */
export function matchKeysInParts(index: SearchIndex, terms: string[], { plan, ranges }: PlannedParts, ranked = false): RawBuilder<{ k: unknown; r?: number }>[] {
  const relevance = ranked ? sql`, r` : sql``;
  return ranges.map((range) => {
    if (plan.match) return sql<{ k: unknown }>`select k${relevance} from (${sqliteMatchKeys(index, plan, terms, ranked, range)})`;
    return sql<{ k: unknown }>`select rowid as k${ranked ? sql`, 0 as r` : sql``} from ${sql.table(index.table)} where ${containsAllTerms(`${index.table}.search_text`, terms)}${inRange('rowid', range)}`;
  });
}
