import { sql, type CompiledQuery, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { rowKey } from '../../../db/dialect.js';
import { containsAllTerms } from './contains.js';
import { countOwnedMatches, indexedContainsAllTerms, ownedKey, ownedRankedKeys, rankedMatchKeys } from './match.js';
import { withStableVocabulary } from './pending.js';
import { estimatedRows } from './pg-match.js';
import { pgOwnedTotal, pgRankedIfFew } from './pg-ranked.js';
import type { PlanOptions } from './plan.js';
import { SHEETS_SEARCH } from './search-index.js';
import { matchKeysInParts, planParts, type PlannedParts } from './sqlite-match.js';
import { sqliteReaders, type SqliteReaders } from '../../../db/sqlite/sqlite-readers.js';
import type { Database, Db, Owner } from '../../../db/types.js';
import { busyPacer } from '../../../runtime/busy-pacer.js';
import type { ConcurrencyGate } from '../../../lib/concurrency-gate.js';

export type SearchSort = 'relevance' | 'updated';

/** Which of the owner's rows a list or search asks for, and which page of them. */
export interface ListFilter extends Owner {
  /** With terms: relevance (the default) or updated, newest first. */
  sort?: SearchSort;
  terms: string[];
  limit: number;
  offset: number;
}

/**
 * What the list route's own module gives the substring search (today the sheets module: the only list
 * with a substring index, SHEETS_SEARCH): its rows' columns and its list queries, so that a search's page
 * is read as the list reads it, and this module never imports the one that calls it.
 */
/** A list's row: every list has an `id`. */
type KeyedRow = { id: string };

export interface OwnedList<Row extends KeyedRow> {
  columns: readonly (keyof Database['sheets'] & string)[];
  /** The owner's rows in one state (live or trashed): where every list, search and count of theirs starts. */
  owned(db: Db, owner: Owner): SelectQueryBuilder<Database, 'sheets', object>;
  /** A page of the owner's rows holding `search`, newest first. */
  newestFirstPage(db: Db, f: ListFilter, search: Expression<SqlBool>): { compile(): CompiledQuery<Row> };
  /** How many rows the owner has in one state. */
  countOwned(db: Db, owner: Owner): Promise<number>;
}

/**
 * Turns a search's page of rows into the items the caller answers with (a snippet each, ~0.15 ms a
 * sheet): given to the search so that SQLite can do it while its reader threads count (searchOnce).
 */
export type Present<Row, Item> = (rows: Row[]) => Promise<Item[]>;

export interface SearchOptions {
  /** See countIfCommon; SEARCH_RANK_MAX_MATCHES. */
  rankMaxMatches: number;
  /**
   * Given on PostgreSQL only: searches running at once in this process (SEARCH_CONCURRENCY); the others wait their
   * turn. SQLite's searches are bounded by its reader threads instead.
   */
  pgSearchGate?: ConcurrencyGate;
  /** See MAX_OTHER_ROWS (tests set it to 0 to count by owner). */
  maxOtherRows?: number;
}

/**
 * `q` searches. The match set is materialized once with a relevance per row; the page is ordered by
 * it (or by updated_at) and the total counts the same set in the same statement. A query matching
 * most of a big account's sheets is listed newest first instead (countIfCommon, isCommon). On SQLite the
 * statement runs on a read-only connection in a worker thread (src/db/sqlite/sqlite-readers.ts): a word
 * found in most sheets takes tens of milliseconds or more, and on the main connection every other
 * request would wait for it. Only the planning (a few rows of the trigram vocabulary) runs here.
 */
export async function searchOwnedList<Row extends KeyedRow, Item>(db: Db, list: OwnedList<Row>, f: ListFilter, opts: SearchOptions, present: Present<Row, Item>): Promise<{ items: Item[]; total: number }> {
  const search = () => withStableVocabulary(db, f.terms, (plan) => searchOnce(db, list, f, opts, plan, present));
  // A search of a common word keeps a PostgreSQL backend busy for tens of milliseconds: unbounded, five at
  // once took both cores of a small machine, and every GET by id waited behind them. Gated, and paced
  // while other requests keep the process busy (SEARCH_BUSY_SHARE).
  return opts.pgSearchGate ? opts.pgSearchGate.run(search, searchPacer) : search();
}

/**
 * The share of time PostgreSQL searches take, through their gate, while other work keeps the event loop
 * busy. Five clients searching a common word without rest (each search ~20 ms of a backend and ~7 ms of
 * the event loop) held GET by id's p99 beside them at 2.4x its p99 alone on 2 cores; see
 * docs/performance.md, twenty-third pass. A search alone is not slowed.
 */
const SEARCH_BUSY_SHARE = 0.5;
const searchPacer = busyPacer(SEARCH_BUSY_SHARE);

/**
 * On SQLite a query that was common the last time (manyLastTime) has its newest-first page read and
 * presented while the reader threads count its matches: the page does not depend on the count, and
 * presenting it on the event loop (~7 ms for 50 sheets) then overlaps the count (2 x ~30 ms for
 * `migration` at 100,000 sheets) instead of following it. When the count says the query is no longer
 * common, that page is dropped and the ranked statement answers, as without the guess.
 */
async function searchOnce<Row extends KeyedRow, Item>(
  db: Db,
  list: OwnedList<Row>,
  f: ListFilter,
  opts: SearchOptions,
  plan: PlanOptions,
  present: Present<Row, Item>,
): Promise<{ items: Item[]; total: number }> {
  const presented = async (page: Promise<{ rows: Row[]; total: number }>) => {
    const { rows, total } = await page;
    return { items: await present(rows), total };
  };
  if (f.sort === 'updated') return presented(searchStatement(db, list, f, plan));
  const readers = sqliteReaders(db);
  if (!readers) return presented(rankedOrCommon(db, list, f, opts, plan));
  const hint = manyHint(f);
  const guessed = manyLastTime.has(hint) ? newestFirst(db, list, f).then(present) : undefined;
  guessed?.catch(() => {}); // awaited below when the guess holds; a failure then is the request's
  const parts = await planParts(db, SHEETS_SEARCH, f.terms, readers.threads, plan);
  const common = await countIfCommon(db, list, readers, f, opts, parts);
  rememberMany(hint, common !== undefined);
  if (!common) return presented(rankedInParts(db, list, readers, f, parts));
  return { items: await (guessed ?? newestFirst(db, list, f).then(present)), total: common.total };
}

/**
 * By relevance without reader threads (PostgreSQL): the same rule as countIfCommon, on an exact count.
 * The token index nominates the owner's candidates without reading a text: when they are few they are
 * ranked at once (pgRankedIfFew), else counted, and the count decides. Terms of separators alone
 * (nothing to look up) leave the LIKE: see countIfLikelyCommon.
 */
async function rankedOrCommon<Row extends KeyedRow>(db: Db, list: OwnedList<Row>, f: ListFilter, opts: SearchOptions, plan: PlanOptions): Promise<{ rows: Row[]; total: number }> {
  const owner = { workspaceId: f.workspaceId, trashed: f.trashed };
  const hint = manyHint(f);
  if (!manyLastTime.has(hint)) {
    const few = await pgRankedIfFew<Row>(db, SHEETS_SEARCH, f.terms, owner, opts.rankMaxMatches, f, list.columns);
    if (few) return few;
  }
  const total = await pgOwnedTotal(db, f.terms, owner, () => countIfLikelyCommon(db, list, f, opts));
  rememberMany(hint, total !== undefined && total > opts.rankMaxMatches);
  if (total !== undefined) return (await isCommon(db, list, f, total, opts)) ? { rows: await newestFirst(db, list, f), total } : searchStatement(db, list, f, plan);
  const ranked = await searchStatement(db, list, f, plan);
  return (await isCommon(db, list, f, ranked.total, opts)) ? { rows: await newestFirst(db, list, f), total: ranked.total } : ranked;
}

/**
 * Searches (owner, state, terms) that were common the last time. On PostgreSQL the next one skips
 * pgRankedIfFew's look at the candidates (~5 ms of a backend for a word in 92,000 of 100,000 sheets,
 * beside the count's ~11) and counts at once; on SQLite it reads its newest-first page beside the count
 * (searchOnce). A hint for the plan only: both ways give the same answer, and a wrong hint costs that
 * look or that page. The oldest of MANY_HINTS_MAX is forgotten first.
 */
const manyLastTime = new Set<string>();
const manyHint = (f: ListFilter) => JSON.stringify([f.workspaceId, f.trashed, f.terms]);
const MANY_HINTS_MAX = 1024;

function rememberMany(hint: string, many: boolean) {
  manyLastTime.delete(hint);
  if (!many) return;
  manyLastTime.add(hint);
  if (manyLastTime.size > MANY_HINTS_MAX) manyLastTime.delete(manyLastTime.values().next().value!);
}

/**
 * PostgreSQL, by LIKE: the owner's matches counted when the planner's estimate (no rows read) says
 * the query is likely common; otherwise undefined, and the ranked statement's own total settles it.
 */
async function countIfLikelyCommon(db: Db, list: OwnedList<KeyedRow>, f: ListFilter, opts: SearchOptions): Promise<number | undefined> {
  if ((await estimatedRows(ownedMatches(db, list, f).select(sql`1`.as('x')))) <= opts.rankMaxMatches) return undefined;
  const { n } = await ownedMatches(db, list, f)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** A row's text holds every term, tested by LIKE (for a newest-first page, which tests few rows, and for counts that cannot use an index). */
const holdsAllTerms = (f: ListFilter) => containsAllTerms(`${SHEETS_SEARCH.table}.search_text`, f.terms);

/** The owner's rows in this state holding every term. */
const ownedMatches = (db: Db, list: OwnedList<KeyedRow>, f: ListFilter) => list.owned(db, f).where(holdsAllTerms(f));

/** The rule countIfCommon applies: more than `opts.rankMaxMatches` of the owner's sheets in this state and more than half of them. */
async function isCommon(db: Db, list: OwnedList<KeyedRow>, f: ListFilter, total: number, opts: SearchOptions): Promise<boolean> {
  return total > opts.rankMaxMatches && total * 2 > (await list.countOwned(db, f));
}

/**
 * A common query's page: the owner's matching sheets newest first. The page walks the owner's list
 * index testing each row's text: with more than half of the rows matching, a page of 50 reads fewer
 * than 100 rows (~13 µs each on SQLite).
 */
async function newestFirst<Row extends KeyedRow>(db: Db, list: OwnedList<Row>, f: ListFilter): Promise<Row[]> {
  return run(db, list.newestFirstPage(db, f, holdsAllTerms(f)).compile());
}

/**
 * SQLite, by relevance: counts the owner's matches, split by rowid over the reader threads, and
 * returns the total when the query matches more than `opts.rankMaxMatches` of the owner's sheets (in
 * this state) and more than half of them. Such a query says little about which sheet is meant (bm25
 * gives a word in more than half of the rows an idf of 1e-6, FTS5's floor, and ranks by its count
 * and the text's length alone), and ranking it means scoring every match: `migration` in 91,824 of
 * 100,000 sheets spent 33 ms finding its matches, 33 more in bm25's own pass over them for the idf
 * and 40 ms scoring each. Those results come newest first instead, as with no `q`; the total is
 * this count (the page is read by a later statement, which may see rows written meanwhile).
 */
async function countIfCommon(db: Db, list: OwnedList<KeyedRow>, readers: SqliteReaders, f: ListFilter, opts: SearchOptions, planned: PlannedParts): Promise<{ total: number } | undefined> {
  const parts = matchKeysInParts(SHEETS_SEARCH, f.terms, planned);
  const maxOthers = opts.maxOtherRows ?? MAX_OTHER_ROWS;
  const others = await otherRowsUpTo(db, list, f, maxOthers);
  const total = others <= maxOthers ? await countByComplement(db, list, readers, f, parts) : await countByOwner(db, readers, f, parts);
  return (await isCommon(db, list, f, total, opts)) ? { total } : undefined;
}

/**
 * Past this many rows that are not the owner's in this state (other accounts' sheets, the owner's
 * trash), the owner's matches are counted by checking each match's owner; up to it, by counting
 * every match and taking away those among the other rows, tested one by one (~13 µs each). Checking
 * the owner of each of 91,824 matches cost 26 ms; a single account with little in its trash (the
 * usual self-hosted case) has next to nothing to take away.
 */
const MAX_OTHER_ROWS = 2000;

/** The owner's rows in the other state (trashed or not), and other accounts' rows: as a union of index ranges. */
function otherRows(db: Db, list: OwnedList<KeyedRow>, f: ListFilter) {
  return [
    db.selectFrom('sheets').where('workspace_id', '<', f.workspaceId),
    db.selectFrom('sheets').where('workspace_id', '>', f.workspaceId),
    list.owned(db, { workspaceId: f.workspaceId, trashed: !f.trashed }),
  ];
}

/** How many otherRows there are, up to `limit` + 1 of each range's index entries read (well under a millisecond); a lower bound past `limit`. */
async function otherRowsUpTo(db: Db, list: OwnedList<KeyedRow>, f: ListFilter, limit: number): Promise<number> {
  const counts = otherRows(db, list, f).map((q) => sql<number>`(select count(*) from (${q.select(sql`1`.as('x')).limit(limit + 1)}))`);
  const { rows } = await sql<{ n: number }>`select ${sql.join(counts, sql` + `)} as n`.execute(db);
  return Number(rows[0].n);
}

const sumOf = (counts: { n: number }[][]) => counts.reduce((sum, [{ n }]) => sum + Number(n), 0);

/** The owner's matches: every match, counted in parts, less the matches among otherRows. */
async function countByComplement(db: Db, list: OwnedList<KeyedRow>, readers: SqliteReaders, f: ListFilter, parts: RawBuilder<{ k: unknown }>[]): Promise<number> {
  const [first, ...rest] = otherRows(db, list, f).map((q) => q.select(['search_text']));
  const others = rest.reduce((union, q) => union.unionAll(q), first);
  const othersMatching = sql`select 1 from (${others}) as o where ${containsAllTerms('o.search_text', f.terms)}`;
  const counts = await Promise.all([...parts, othersMatching].map((q) => readers.all(sql<{ n: number }>`select count(*) as n from (${q})`.compile(db))));
  return sumOf(counts.slice(0, -1)) - sumOf(counts.slice(-1));
}

/** The owner's matches: each part's matches checked for their owner and state one by one. */
async function countByOwner(db: Db, readers: SqliteReaders, f: ListFilter, parts: RawBuilder<{ k: unknown }>[]): Promise<number> {
  const owner = { workspaceId: f.workspaceId, trashed: f.trashed };
  return sumOf(await Promise.all(parts.map((keys) => readers.all(sql<{ n: number }>`select count(*) as n from (${keys}) as x where ${ownedKey(db, SHEETS_SEARCH, 'x', owner)}`.compile(db)))));
}

/** One statement: the match set with a relevance per row, the page ordered by it (or by last change) and its total. */
async function searchStatement<Row extends KeyedRow>(db: Db, list: OwnedList<Row>, f: ListFilter, plan: PlanOptions): Promise<{ rows: Row[]; total: number }> {
  const key = rowKey(db);
  const rowColumns = sql.join(list.columns.map((c) => sql.ref(`sheets.${c}`)));
  const owner = { workspaceId: f.workspaceId, trashed: f.trashed };
  const keys = await rankedMatchKeys(db, SHEETS_SEARCH, f.terms, plan, owner);
  // By relevance the match set is narrowed to this owner's rows once, and both the page (rank, then
  // newest key) and the total come from it; only the page's rows are read. By last change every
  // matching row is read for its updated_at.
  const owned = ownedRankedKeys(db, SHEETS_SEARCH, 'x', owner);
  const page =
    f.sort === 'updated'
      ? sql<Row & { total: number }>`with m as materialized (${keys})
    select ${rowColumns}, (${countOwnedMatches(db, SHEETS_SEARCH, 'm', owner)}) as total from m join sheets on sheets.${sql.id(key)} = m.k
    where sheets.workspace_id = ${f.workspaceId} and sheets.trashed_at ${f.trashed ? sql`is not` : sql`is`} null
    order by sheets.updated_at desc, sheets.id desc limit ${f.limit} offset ${f.offset}`
      : sql<Row & { total: number }>`with m as materialized (select x.k, x.r from (${keys}) as x where ${owned})
    select ${rowColumns}, (select count(*) from m) as total
    from (select m.k, m.r from m order by m.r desc, m.k desc limit ${f.limit} offset ${f.offset}) as p
    join sheets on sheets.${sql.id(key)} = p.k
    order by p.r desc, p.k desc`;
  const rows = await run(db, page.compile(db));
  if (rows.length > 0) return { rows: rows.map(({ total: _, ...row }) => row as unknown as Row), total: Number(rows[0].total) };
  if (f.offset === 0 && f.limit > 0) return { rows: [], total: 0 };
  // Past the last page: the total on its own.
  const count = list
    .owned(db, f)
    .where(await indexedContainsAllTerms(db, SHEETS_SEARCH, f.terms, plan))
    .select((eb) => eb.fn.countAll().as('n'));
  const [{ n }] = await run(db, count.compile());
  return { rows: [], total: Number(n) };
}

/**
 * SQLite, by relevance: the owner's matches scored in rowid parts on the reader threads at once. Each
 * part gives its count and its best offset + limit keys; the page is the best of them in the ranked
 * statement's order (relevance, then the newest key) and the total their sum; the page's rows are read
 * last. As one statement `kubernetes` (6,665 matches at 100,000 sheets) kept one reader busy ~30 ms
 * while the other had nothing to do.
 */
async function rankedInParts<Row extends KeyedRow>(db: Db, list: OwnedList<Row>, readers: SqliteReaders, f: ListFilter, planned: PlannedParts): Promise<{ rows: Row[]; total: number }> {
  const owner = { workspaceId: f.workspaceId, trashed: f.trashed };
  const parts = matchKeysInParts(SHEETS_SEARCH, f.terms, planned, true);
  const best = f.offset + f.limit;
  const tops = await Promise.all(
    parts.map((keys) =>
      readers.all(
        sql<{ total: number; k: number | null; r: number | null }>`with m as materialized (select x.k, x.r from (${keys}) as x where ${ownedKey(db, SHEETS_SEARCH, 'x', owner)})
    select t.total, p.k, p.r from (select count(*) as total from m) as t left join (select m.k, m.r from m order by m.r desc, m.k desc limit ${best}) as p on true`.compile(db),
      ),
    ),
  );
  const total = tops.reduce((sum, rows) => sum + Number(rows[0].total), 0);
  const page = tops
    .flat()
    .filter((t): t is { total: number; k: number; r: number } => t.k !== null)
    .sort((a, b) => b.r - a.r || b.k - a.k)
    .slice(f.offset, best)
    .map((t) => t.k);
  if (page.length === 0) return { rows: [], total };
  const rowColumns = sql.join(list.columns.map((c) => sql.ref(`sheets.${c}`)));
  const rows = await run(db, sql<Row & { k: number }>`select sheets.rowid as k, ${rowColumns} from sheets where sheets.rowid in (${sql.join(page)})`.compile(db));
  const byKey = new Map(rows.map(({ k, ...row }) => [k, row as unknown as Row]));
  return { rows: page.flatMap((k) => byKey.get(k) ?? []), total };
}

async function run<R>(db: Db, query: CompiledQuery<R>): Promise<R[]> {
  const readers = sqliteReaders(db);
  return readers ? readers.all(query) : (await db.executeQuery(query)).rows;
}
