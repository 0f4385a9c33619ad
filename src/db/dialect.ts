import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { transactionAlone } from './group-commit.js';
import { likePattern } from './like.js';
import { tokenMatchKeys, tokenPlan, type TokenPlan } from './pg-token-index.js';
import type { Db, Dialect, Owner } from './types.js';

/**
 * The one place where SQLite and PostgreSQL differ. Everything else in the
 * codebase writes portable Kysely.
 */

/** Text as search sees it: Unicode-normalized (full-width -> half-width) and lower-cased. */
export function normalizeForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Splits a query into terms; every term must occur (substring match, so CJK words of any length work). */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  return normalizeForSearch(q)
    .split(/\s+/u)
    .filter((t) => t.length > 0)
    .slice(0, 10);
}

/** `column` contains every term. Columns hold normalizeForSearch() text, so the match is case-insensitive on both dialects. */
export function containsAllTerms(column: string, terms: string[]): Expression<SqlBool> {
  const parts = terms.map((t) => sql<SqlBool>`${sql.ref(column)} like ${likePattern(t)} escape '\\'`);
  return parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** Which database a Kysely instance (or transaction) talks to. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A text column's UTF-8 bytes (a Buffer in JavaScript): stored JSON goes into an answer without being decoded and encoded again. */
export function utf8Bytes(db: Kysely<any>, column: string): RawBuilder<Buffer> {
  return dialectOf(db) === 'postgres' ? sql<Buffer>`convert_to(${sql.ref(column)}, 'UTF8')` : sql<Buffer>`cast(${sql.ref(column)} as blob)`;
}

/**
 * Holds the selected rows until the transaction ends: SELECT ... FOR UPDATE on PostgreSQL. SQLite has no
 * row locks and needs none: every transaction there is BEGIN IMMEDIATE (src/db/statement-cache.ts), which
 * holds the database's write lock from its first statement.
 */
export function lockedForUpdate<QB extends { forUpdate(): QB }>(exec: Kysely<any>, qb: QB): QB {
  return dialectOf(exec) === 'postgres' ? qb.forUpdate() : qb;
}

/**
 * A trigram search index over a table's search_text (migration 008): the FTS5 table, its fts5vocab
 * table, the SQLite partial index of live rows by owner that search totals use (migration 010), and
 * the queue of rows written since they were last indexed (migration 018, see indexPendingRows).
 */
export interface SearchIndex {
  table: string;
  fts: string;
  vocab: string;
  liveByOwner: string;
  pending: string;
}

export const SHEETS_SEARCH: SearchIndex = { table: 'sheets', fts: 'sheets_fts', vocab: 'sheets_fts_terms', liveByOwner: 'sheets_live_owner', pending: 'sheets_fts_pending' };

/** Most trigrams a one- or two-character term may expand to before that term falls back to LIKE. */
const MAX_SHORT_TERM_EXPANSION = 2000;
/**
 * A short term's OR of trigrams reads its (document, trigram) postings, ~0.6 µs each with bm25 over
 * them; the LIKE it replaces reads every row, ~4 µs each. So the OR wins up to about six postings per
 * row of the table; past four per row the term keeps the LIKE. Measured at 100,000 sheets: `会議` (1.2
 * postings per row) 92 ms ranked against 500 ms for the LIKE; `e` (39 per row) 3.2 s against 380 ms.
 */
const MAX_SHORT_TERM_POSTINGS_PER_ROW = 4;
const codePoints = (t: string) => [...t].length;
const hasControl = (t: string) => /[\u0000-\u001f]/u.test(t);
/** A 1-2 character term: the trigram index holds no term that short, so its plan reads the index's vocabulary. */
const isShortTerm = (t: string) => !hasControl(t) && codePoints(t) < 3;
const ftsString = (t: string) => `"${t.replace(/"/g, '""')}"`;

/**
 * Same rows as containsAllTerms(index.table.search_text, terms), found through the index.
 * On SQLite a term of three or more characters is an FTS5 trigram phrase, which is exactly a
 * substring test (the index is case-sensitive over already-normalized text). A one- or
 * two-character term becomes the OR of the indexed trigrams that start with it (every
 * occurrence starts one, thanks to the two U+0003 the index appends); a term with control
 * characters, or one so common that the OR would read more postings than a scan, keeps the LIKE.
 * Rows written since the index last caught up (the pending queue) are tested by LIKE instead.
 * On PostgreSQL the token index finds them (src/db/pg-token-index.ts).
 */
export async function indexedContainsAllTerms(db: Kysely<any>, index: SearchIndex, terms: string[], opts: PlanOptions = {}): Promise<Expression<SqlBool>> {
  const column = `${index.table}.search_text`;
  if (terms.length === 0) return containsAllTerms(column, terms);
  if (dialectOf(db) === 'postgres') return pgContainsAllTerms(index, terms);
  const plan = await planTerms(db, index, terms, opts);
  if (!plan.match) return containsAllTerms(column, terms);
  return sql<SqlBool>`${sql.ref(`${index.table}.rowid`)} in (select k from (${sqliteMatchKeys(index, plan, terms, false)}))`;
}

/**
 * PostgreSQL: `index.table`'s row holds every term, through the token index when it can look the
 * terms up (see tokenFound), else by LIKE.
 */
function pgContainsAllTerms(index: SearchIndex, terms: string[], owner?: Owner, candidates?: string): Expression<SqlBool> {
  const plan = tokenPlan(terms);
  return plan ? tokenFound(index, plan, owner, candidates) : containsAllTerms(`${index.table}.search_text`, terms);
}

/**
 * PostgreSQL: `index.table`'s row is among the keys the token index finds for `plan` (narrowed to
 * `owner`'s first, if given, or read from the `candidates` table of pgCappedCandidates), and its text
 * holds the terms the index cannot settle alone.
 */
function tokenFound(index: SearchIndex, plan: TokenPlan, owner?: Owner, candidates?: string): Expression<SqlBool> {
  const keys = candidates ? sql`select k from ${sql.table(candidates)}` : tokenMatchKeys(plan, owner);
  // = any(array(...)), not in (...): the rows are then fetched by one bitmap scan, each page once and
  // in order, instead of an index lookup per key (6,665 of them: ~60 against ~70 ms with the scoring).
  const found = sql<SqlBool>`${sql.ref(`${index.table}.id`)} = any(array(${keys}))`;
  return plan.recheck.length === 0 ? found : sql<SqlBool>`${found} and ${containsAllTerms(`${index.table}.search_text`, plan.recheck)}`;
}

/**
 * PostgreSQL: the owner's candidates from the token index (column k), at most `cap` + 1 of them, or
 * undefined when the index cannot look the terms up. No more than `cap` means these are all of them
 * (matches, once any term it cannot settle alone is tested on their texts).
 */
export function pgCappedCandidates(terms: string[], owner: Owner, cap: number): RawBuilder<{ k: unknown }> | undefined {
  const plan = tokenPlan(terms);
  return plan && sql<{ k: unknown }>`select c.k from (${tokenMatchKeys(plan, owner)}) as c limit ${cap + 1}`;
}

/**
 * PostgreSQL: how many of the owner's sheets in this state hold every term, exact, from the token
 * index (~20 ms for a word in 92,000 of 100,000 sheets); undefined when the index cannot answer.
 */
export async function pgOwnedMatchCount(db: Kysely<any>, terms: string[], owner: Owner): Promise<number | undefined> {
  const plan = tokenPlan(terms);
  if (!plan) return undefined;
  // Counted from sheet_tokens alone unless some term needs its text tested.
  const keys = plan.recheck.length === 0 ? tokenMatchKeys(plan, owner) : sql`select sheets.id from sheets where ${tokenFound(SHEETS_SEARCH, plan, owner)}`;
  const { rows } = await sql<{ n: string }>`select count(*) as n from (${keys}) as x`.execute(db);
  return Number(rows[0].n);
}

/**
 * The keys (column k) of the rows holding every term, with a relevance per row (column r, higher is
 * better) for `sort=relevance`.
 * SQLite: bm25 over the FTS match when every term goes through the index (negated: bm25 is lower
 * for better matches); when a term keeps the LIKE every row gets 0, so the order falls back to
 * newest first, and so do rows not indexed yet (they rank after the indexed matches for the few
 * milliseconds until the indexer reaches them). PostgreSQL: a bm25-like score from each term's
 * occurrences in the text and the text's size (tf / (tf + 1.2 * bytes / 3000), summed over terms).
 * It reads the text of each match the token index finds (only those). Over 20,000 matching 2 KB
 * texts: 66 ms, where pg_trgm's similarity() (the trigram set of every text) took 1,850 ms; over
 * `東京`'s 7,238 matches at 100,000 sheets ~30 ms. Words in most sheets skip it (newest first).
 */
export async function rankedMatchKeys(
  db: Kysely<any>,
  index: SearchIndex,
  terms: string[],
  opts: PlanOptions = {},
  owner?: Owner,
  candidates?: string,
): Promise<RawBuilder<{ k: unknown; r: number }>> {
  if (dialectOf(db) === 'postgres') {
    const text = sql.ref(`${index.table}.search_text`);
    const scores = terms.map((t) => {
      // Bytes, not characters: octet_length reads the header, length() counts UTF-8 characters (5x slower here).
      const tf = sql`((octet_length(${text}) - octet_length(replace(${text}, ${t}, ''))) / ${Buffer.byteLength(t)}::float8)`;
      const lengthNorm = sql`(1.2 * octet_length(${text}) / 3000.0 + 1e-9)`;
      // tf / (tf + norm), written with tf once: PostgreSQL evaluates (and decompresses the text for)
      // each occurrence, and over kubernetes' 6,665 matches the second one cost 20 of 65 ms.
      return sql`(1 - ${lengthNorm} / (${tf} + ${lengthNorm}))`;
    });
    const owned = owner ? sql` and user_id = ${owner.userId} and trashed_at ${owner.trashed ? sql`is not` : sql`is`} null` : sql``;
    return sql`select id as k, (${sql.join(scores, sql` + `)}) as r from ${sql.table(index.table)} where ${pgContainsAllTerms(index, terms, owner, candidates)}${owned}`;
  }
  const plan = await planTerms(db, index, terms, opts);
  if (plan.match) return sqliteMatchKeys(index, plan, terms, true);
  return sql`select rowid as k, 0 as r from ${sql.table(index.table)} where ${containsAllTerms(`${index.table}.search_text`, terms)}`;
}

/**
 * SQLite: the keys (k) and relevance (r) of the rows holding every term, for a plan with a MATCH. Two
 * disjoint parts: the FTS hits of rows indexed as they are now (pending rows left out: the index
 * may hold their old text), and the pending rows themselves, tested by LIKE (the queue is short:
 * the indexer empties it after each write).
 */
function sqliteMatchKeys(index: SearchIndex, plan: TermPlan, terms: string[], ranked: boolean, range: RowidRange = {}): RawBuilder<{ k: unknown; r: number }> {
  const fts = sql.table(index.fts);
  const pendingKeys = sql`select row_id from ${sql.table(index.pending)}`;
  const relevance = ranked && plan.like.length === 0 ? sql`-bm25(${fts})` : sql`0`;
  // The unary plus keeps SQLite from handing the NOT IN list to the FTS table as a rowid constraint.
  let indexed = sql`select rowid as k, ${relevance} as r from ${fts} where ${fts} match ${plan.match} and +rowid not in (${pendingKeys})${inRange('rowid', range)}`;
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

/**
 * SQLite: the keys (column k) of the rows holding every term, as `parts` subqueries over disjoint
 * rowid ranges that together cover the table, the last one open-ended (a row inserted meanwhile
 * falls in it). Counting a word found in most rows takes tens of milliseconds; the parts run on
 * separate reader threads at once. The FTS index takes the rowid bounds as a range of its own.
 */
export async function matchKeysInParts(
  db: Kysely<any>,
  index: SearchIndex,
  terms: string[],
  parts: number,
  opts: PlanOptions = {},
): Promise<RawBuilder<{ k: unknown }>[]> {
  const plan = await planTerms(db, index, terms, opts);
  const rowidCeiling = await tableSizeEstimate(db, index);
  const step = Math.ceil((rowidCeiling + 1) / parts);
  const keys = Array.from({ length: parts }, (_, i) => {
    const range: RowidRange = { from: i === 0 ? undefined : i * step, to: i === parts - 1 ? undefined : (i + 1) * step };
    if (plan.match) return sql<{ k: unknown }>`select k from (${sqliteMatchKeys(index, plan, terms, false, range)})`;
    return sql<{ k: unknown }>`select rowid as k from ${sql.table(index.table)} where ${containsAllTerms(`${index.table}.search_text`, terms)}${inRange('rowid', range)}`;
  });
  return keys;
}

/**
 * A search's total: how many keys of the materialized match set `matchSet` (column k, from
 * indexedMatchKeys) are rows of this owner in this state. For live rows SQLite is told to use the
 * partial index of live rows by owner, which it does not pick by itself: seeking each hit there
 * instead of walking the owner's list index took the total from ~11 to ~4 ms at 100,000 sheets.
 */
export function countOwnedMatches(db: Kysely<any>, index: SearchIndex, matchSet: string, owner: Owner): RawBuilder<number> {
  const hint = dialectOf(db) === 'sqlite' && !owner.trashed ? sql`indexed by ${sql.id(index.liveByOwner)}` : sql``;
  return sql<number>`select count(*) from ${sql.table(index.table)} as o ${hint} where o.user_id = ${owner.userId}
    and o.trashed_at ${owner.trashed ? sql`is not` : sql`is`} null and o.${sql.id(rowKey(db))} in (select k from ${sql.table(matchSet)})`;
}

/**
 * `${matchSet}.k` is a row of this owner in this state, checked per key (a semi-join). On SQLite live
 * rows are sought in the partial index of live rows by owner (user id and rowid only), so a ranked
 * page is chosen from the match set without reading any sheet row; only the page's rows are read
 * afterwards. Not `k IN (select ...)`: SQLite builds that list from every row of the owner first
 * (~50 ms at 100,000 sheets even when three sheets match).
 */
export function ownedKey(db: Kysely<any>, index: SearchIndex, matchSet: string, owner: Owner): RawBuilder<SqlBool> {
  const key = sql.id(rowKey(db));
  const hint = dialectOf(db) === 'sqlite' && !owner.trashed ? sql`indexed by ${sql.id(index.liveByOwner)}` : sql``;
  return sql<SqlBool>`exists (select 1 from ${sql.table(index.table)} as o ${hint}
    where o.user_id = ${owner.userId} and o.trashed_at ${owner.trashed ? sql`is not` : sql`is`} null and o.${key} = ${sql.ref(`${matchSet}.k`)})`;
}

/**
 * PostgreSQL: how many rows the planner expects `query` to return, from EXPLAIN without ANALYZE (it
 * reads no rows, ~1 ms). For choosing a plan only, never for a figure a client sees: for `LIKE
 * '%migration%'` at 100,000 sheets it said 70,707 where 91,824 rows match.
 */
export async function estimatedRows(query: { explain(format: 'json'): Promise<Record<string, any>[]> }): Promise<number> {
  const [row] = await query.explain('json');
  return Number(row?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * SQLite: which terms the FTS index answers (one MATCH expression) and which keep the LIKE.
 * `indexMisses`: a short term starts no indexed trigram, so only rows not indexed yet can hold it.
 */
interface TermPlan {
  match?: string;
  like: string[];
  indexMisses: boolean;
}

/** `shortTermsByLike`: 1-2 character terms keep the LIKE, so the plan reads nothing before the statement. */
export interface PlanOptions {
  shortTermsByLike?: boolean;
}

async function planTerms(db: Kysely<any>, index: SearchIndex, terms: string[], opts: PlanOptions = {}): Promise<TermPlan> {
  const match: string[] = [];
  const like: string[] = [];
  let indexMisses = false;
  let rows: number | undefined;
  for (const term of terms) {
    if (hasControl(term)) like.push(term);
    else if (!isShortTerm(term)) match.push(ftsString(term));
    else if (opts.shortTermsByLike) like.push(term);
    else {
      const trigrams = (await sql<{ term: string; doc: number }>`select term, doc from ${sql.table(index.vocab)} where term >= ${term} and term < ${`${term}\u{10ffff}`} limit ${MAX_SHORT_TERM_EXPANSION + 1}`.execute(db)).rows;
      if (trigrams.length === 0) {
        // No indexed row holds the term: the MATCH is never run, only the queue is searched.
        indexMisses = true;
        match.push(ftsString(term));
        continue;
      }
      const postings = trigrams.reduce((n, r) => n + Number(r.doc), 0);
      rows ??= await tableSizeEstimate(db, index);
      if (trigrams.length > MAX_SHORT_TERM_EXPANSION || postings > MAX_SHORT_TERM_POSTINGS_PER_ROW * rows) like.push(term);
      else match.push(`(${trigrams.map((r) => ftsString(r.term)).join(' OR ')})`);
    }
  }
  return { match: match.length > 0 ? match.join(' AND ') : undefined, like, indexMisses };
}

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

/** Terms whose plan reads the index's vocabulary (1-2 characters) on SQLite. */
export const hasShortTerm = (terms: string[]) => terms.some(isShortTerm);

/** The table's largest rowid: its row count or more (deleted rows leave gaps), read from the end of the primary key. */
async function tableSizeEstimate(db: Kysely<any>, index: SearchIndex): Promise<number> {
  const { rows } = await sql<{ n: number | null }>`select max(rowid) as n from ${sql.table(index.table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The cheapest key to collect a table's matching rows by: SQLite's rowid (the FTS index is keyed
 * by it, so a match set needs no table lookup), PostgreSQL's primary key id.
 */
export function rowKey(db: Kysely<any>): 'rowid' | 'id' {
  return dialectOf(db) === 'postgres' ? 'id' : 'rowid';
}

/** Row lock clause for queue claims: SKIP LOCKED on PostgreSQL; SQLite serializes writers anyway. */
export function skipLockedSuffix(dialect: Dialect) {
  return dialect === 'postgres' ? sql`for update skip locked` : sql``;
}

/** Channel on which PostgreSQL processes tell each other's webhook workers that events were committed. */
export const OUTBOX_CHANNEL = 'sw_outbox';

/** Cross-process wake-up after a commit: NOTIFY on PostgreSQL; SQLite has no other processes to tell (null). */
export function outboxNotifySql(dialect: Dialect, payload: string) {
  return dialect === 'postgres' ? sql`select pg_notify(${OUTBOX_CHANNEL}, ${payload})` : null;
}

/** LISTEN on a dedicated connection (a pooled one would be returned to the pool). Returns a closer. */
export async function listenForOutbox(url: string, onNotify: (payload: string) => void, onError: (err: Error) => void): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  client.on('error', onError);
  client.on('notification', (msg) => onNotify(msg.payload ?? ''));
  await client.connect();
  await client.query(`listen ${OUTBOX_CHANNEL}`);
  return async () => {
    await client.end().catch(() => {});
  };
}
