import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf, rowKey } from '../../../db/dialect.js';
import type { Owner } from '../../../db/types.js';
import { containsAllTerms } from './contains.js';
import { pgContainsAllTerms } from './pg-match.js';
import { planTerms, type PlanOptions } from './plan.js';
import type { SearchIndex } from './search-index.js';
import { sqliteMatchKeys } from './sqlite-match.js';

/**
 * Same rows as containsAllTerms(index.table.search_text, terms), found through the index.
 * On SQLite a term of three or more characters is an FTS5 trigram phrase, which is exactly a
 * substring test (the index is case-sensitive over already-normalized text). A one- or
 * two-character term becomes the OR of the indexed trigrams that start with it (every
 * occurrence starts one, thanks to the two U+0003 the index appends); a term with control
 * characters, or one so common that the OR would read more postings than a scan, keeps the LIKE.
 * Rows written since the index last caught up (the pending queue) are tested by LIKE instead.
 * On PostgreSQL the token index finds them (src/modules/search/substring/pg-token-index.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function indexedContainsAllTerms(db: Kysely<any>, index: SearchIndex, terms: string[], opts: PlanOptions = {}): Promise<Expression<SqlBool>> {
  const column = `${index.table}.search_text`;
  if (terms.length === 0) return containsAllTerms(column, terms);
  if (dialectOf(db) === 'postgres') return pgContainsAllTerms(index, terms);
  const plan = await planTerms(db, index, terms, opts);
  if (!plan.match) return containsAllTerms(column, terms);
  return sql<SqlBool>`${sql.ref(`${index.table}.rowid`)} in (select k from (${sqliteMatchKeys(index, plan, terms, false)}))`;
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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
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
    const owned = owner ? sql` and workspace_id = ${owner.workspaceId} and trashed_at ${owner.trashed ? sql`is not` : sql`is`} null` : sql``;
    return sql`select id as k, (${sql.join(scores, sql` + `)}) as r from ${sql.table(index.table)} where ${pgContainsAllTerms(index, terms, owner, candidates)}${owned}`;
  }
  const plan = await planTerms(db, index, terms, opts);
  if (plan.match) return sqliteMatchKeys(index, plan, terms, true);
  return sql`select rowid as k, 0 as r from ${sql.table(index.table)} where ${containsAllTerms(`${index.table}.search_text`, terms)}`;
}

/**
 * A search's total: how many keys of the materialized match set `matchSet` (column k, from
 * indexedMatchKeys) are rows of this owner in this state. For live rows SQLite is told to use the
 * partial index of live rows by owner, which it does not pick by itself: seeking each hit there
 * instead of walking the owner's list index took the total from ~11 to ~4 ms at 100,000 sheets.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function countOwnedMatches(db: Kysely<any>, index: SearchIndex, matchSet: string, owner: Owner): RawBuilder<number> {
  const hint = dialectOf(db) === 'sqlite' && !owner.trashed ? sql`indexed by ${sql.id(index.liveByOwner)}` : sql``;
  return sql<number>`select count(*) from ${sql.table(index.table)} as o ${hint} where o.workspace_id = ${owner.workspaceId}
    and o.trashed_at ${owner.trashed ? sql`is not` : sql`is`} null and o.${sql.id(rowKey(db))} in (select k from ${sql.table(matchSet)})`;
}

/**
 * `${matchSet}.k` is a row of this owner in this state, checked per key (a semi-join). On SQLite live
 * rows are sought in the partial index of live rows by owner (user id and rowid only), so a ranked
 * page is chosen from the match set without reading any sheet row; only the page's rows are read
 * afterwards. Not `k IN (select ...)`: SQLite builds that list from every row of the owner first
 * (~50 ms at 100,000 sheets even when three sheets match).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function ownedKey(db: Kysely<any>, index: SearchIndex, matchSet: string, owner: Owner): RawBuilder<SqlBool> {
  const key = sql.id(rowKey(db));
  const hint = dialectOf(db) === 'sqlite' && !owner.trashed ? sql`indexed by ${sql.id(index.liveByOwner)}` : sql``;
  return sql<SqlBool>`exists (select 1 from ${sql.table(index.table)} as o ${hint}
    where o.workspace_id = ${owner.workspaceId} and o.trashed_at ${owner.trashed ? sql`is not` : sql`is`} null and o.${key} = ${sql.ref(`${matchSet}.k`)})`;
}

/**
 * Narrows rankedMatchKeys' keys (`${matchSet}.k`) to the owner's rows in this state. PostgreSQL's keys
 * are the owner's already when rankedMatchKeys was given the owner (its token index holds each row's
 * owner and state); SQLite's FTS index knows only rowids, so each key is checked (ownedKey).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function ownedRankedKeys(db: Kysely<any>, index: SearchIndex, matchSet: string, owner: Owner): RawBuilder<SqlBool> {
  return dialectOf(db) === 'postgres' ? sql<SqlBool>`true` : ownedKey(db, index, matchSet, owner);
}
