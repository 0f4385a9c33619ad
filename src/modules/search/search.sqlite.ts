import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { sqliteReaders } from '../../db/sqlite/sqlite-readers.js';
import { RANK_ALL, TOTAL_CAP, WEIGHTS, rarestWithin, type Candidate, type EngineQuery, type SearchAdapter, type SearchDoc } from './search.engine.js';

/**
 * SQLite: search_docs (one row per record) and the FTS5 table search_fts beside it (rowid = doc_id,
 * columns title, err, meta, body, scope), contentless: it holds the words the application tokenized,
 * joined by spaces; unicode61 splits them on the spaces only (every word is letters and digits).
 * Ranked by FTS5's bm25() with the field weights of WEIGHTS; the words are ORed, so none is required.
 *
 * `scope` holds the record's owner, kind and project as words (migration 041) with bm25() weight 0:
 * reach, kind and project are filtered inside the index (`scope : (...)`), so neither the count nor
 * the ranking joins a match to search_docs; only the page's candidates are read from it.
 *
 * A doc is written anew on every change (a new doc_id), so rowid order is the order records were last
 * indexed: newest last.
 *
 * The index's tables, in the search index file (attached as search_index to the index thread's and the
 * reader threads' connections, never to the event loop's: src/db/sqlite/search-index-file.ts). The
 * file's preparation (substring/sqlite-index-file.ts) makes them; migration 043 dropped the ones the
 * database file held.
 */
export const SQLITE_INDEX_TABLES = (schema: string) => [
  `create table ${schema}.search_docs (doc_id integer primary key, kind text not null, record_id text not null, owner_key text not null,
    project text, title text not null, updated_at text not null)`,
  `create unique index ${schema}.search_docs_record on search_docs (record_id, kind)`,
  `create virtual table ${schema}.search_fts using fts5(title, err, meta, body, scope, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`,
];

/** Rows of a read of the index: on a reader thread, the connections that attach the index file (src/db/sqlite/sqlite-readers.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function readIndex<R>(db: Kysely<any>, query: RawBuilder<R>): Promise<R[]> {
  const readers = sqliteReaders(db);
  if (!readers) throw new Error('the SQLite search index is read on the reader threads of a database opened by openDatabase');
  return readers.all(query.compile(db));
}

const join = (terms: string[]) => terms.join(' ');
const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
const word = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

export const ownerWord = (workspaceId: string) => `o${word(workspaceId)}`;
export const kindWord = (kind: string) => `k${kind}`;
/** Projects are any text: a hash as one word (a collision is caught by the exact check on search_docs). */
export const projectWord = (project: string) => `p${createHash('sha256').update(project).digest('hex').slice(0, 20)}`;

export const sqliteSearch: SearchAdapter = {
  async write(trx, docs, removed) {
    for (const r of removed) {
      const ids = (await sql<{ doc_id: number }>`select doc_id from search_index.search_docs where record_id = ${r.record_id} and kind in (${sql.join(r.kinds)})`.execute(trx)).rows;
      for (const { doc_id } of ids) await removeDoc(trx, doc_id);
    }
    for (const d of docs) await writeDoc(trx, d);
  },

  async query(db, q) {
    const scope = scopeFilter(q);
    const all = `(${q.terms.map(quote).join(' OR ')}) AND ${scope}`;
    const matches = await countUpTo(db, all, RANK_ALL + 1);
    const total = Math.min(matches, TOTAL_CAP + 1);
    const bm25 = sql`-bm25(search_fts, ${sql.lit(WEIGHTS.title)}, ${sql.lit(WEIGHTS.err)}, ${sql.lit(WEIGHTS.meta)}, ${sql.lit(WEIGHTS.body)}, 0)`;
    let ranked: { doc_id: number; rel: number }[];
    if (matches <= RANK_ALL) {
      ranked = await readIndex(
        db,
        sql<{ doc_id: number; rel: number }>`select rowid as doc_id, ${bm25} as rel from search_index.search_fts where search_fts match ${all}
        order by rel desc limit ${q.window}`,
      );
    } else {
      // Bounded work (docs/search.md, "At 100,000 records"): rank by the words that select at most RANK_ALL
      // records (the rarest first); when every word is that common, rank the newest RANK_ALL matches.
      const selective = await selectiveTerms(db, q.terms, scope);
      const rankBy = selective.length > 0 ? `(${selective.map(quote).join(' OR ')}) AND ${scope}` : all;
      ranked = await readIndex(
        db,
        sql<{ doc_id: number; rel: number }>`select * from (select rowid as doc_id, ${bm25} as rel from search_index.search_fts
        where search_fts match ${rankBy} order by rowid desc limit ${RANK_ALL}) order by rel desc limit ${q.window}`,
      );
    }
    if (ranked.length === 0) return { candidates: [], total };
    const rel = new Map(ranked.map((r) => [r.doc_id, r.rel]));
    const docs = await readIndex(
      db,
      sql<Omit<Candidate, 'rel'> & { doc_id: number; owner_key: string }>`select doc_id, kind, record_id, owner_key, project, title, updated_at
      from search_index.search_docs where doc_id in (${sql.join([...rel.keys()])})`,
    );
    const owners = new Set(q.ownerKeys);
    const candidates = docs
      .filter((d) => owners.has(d.owner_key) && q.kinds.includes(d.kind) && (q.project === undefined || d.project === q.project))
      .map(({ doc_id, ...d }) => ({ ...d, rel: rel.get(doc_id) ?? 0 }))
      .sort((a, b) => b.rel - a.rel);
    return { candidates, total };
  },
};

function scopeFilter(q: EngineQuery): string {
  const parts = [`scope : (${q.ownerKeys.map(ownerWord).join(' OR ')})`];
  if (q.kinds.length < 5) parts.push(`scope : (${q.kinds.map(kindWord).join(' OR ')})`);
  if (q.project !== undefined) parts.push(`scope : ${projectWord(q.project)}`);
  return parts.join(' AND ');
}

/** How many records `match` selects, counted up to `most` (bounded work). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function countUpTo(db: Kysely<any>, match: string, most: number): Promise<number> {
  const r = await readIndex(db, sql<{ n: number }>`select count(*) as n from (select 1 from search_index.search_fts where search_fts match ${match} limit ${most})`);
  return Number(r[0]?.n ?? 0);
}

/** The rarest query words whose matches add up to at most RANK_ALL (each counted only up to RANK_ALL + 1: bounded). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function selectiveTerms(db: Kysely<any>, terms: string[], scope: string): Promise<string[]> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, await countUpTo(db, `${quote(t)} AND ${scope}`, RANK_ALL + 1));
  return rarestWithin(terms, (t) => counts.get(t) ?? 0);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function removeDoc(trx: Kysely<any>, docId: number): Promise<void> {
  await sql`delete from search_index.search_fts where rowid = ${docId}`.execute(trx);
  await sql`delete from search_index.search_docs where doc_id = ${docId}`.execute(trx);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function writeDoc(trx: Kysely<any>, d: SearchDoc): Promise<void> {
  const found = (await sql<{ doc_id: number }>`select doc_id from search_index.search_docs where record_id = ${d.record_id} and kind = ${d.kind}`.execute(trx)).rows[0];
  if (found) await removeDoc(trx, found.doc_id);
  const inserted = await sql<{ doc_id: number }>`insert into search_index.search_docs (kind, record_id, owner_key, project, title, updated_at)
    values (${d.kind}, ${d.record_id}, ${d.owner_key}, ${d.project}, ${d.title}, ${d.updated_at}) returning doc_id`.execute(trx);
  const t = d.terms;
  const scope = [ownerWord(d.owner_key), kindWord(d.kind), ...(d.project === null ? [] : [projectWord(d.project)])].join(' ');
  await sql`insert into search_index.search_fts (rowid, title, err, meta, body, scope)
    values (${inserted.rows[0].doc_id}, ${join(t.title)}, ${join(t.err)}, ${join(t.meta)}, ${join(t.body)}, ${scope})`.execute(trx);
}
