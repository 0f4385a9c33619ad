import { sql, type Kysely } from 'kysely';
import { RANK_ALL, TOTAL_CAP, WEIGHTS, rarestWithin, type Candidate, type EngineQuery, type SearchAdapter, type SearchDoc } from './search.engine.js';

/**
 * PostgreSQL: search_docs holds each record's words as a tsvector (tsv, GIN-indexed) written as a
 * literal from the application's tokens, with weights A (title), B (errors), C (meta), D (body) and
 * positions, so no text search parser or locale decides what a word is (CJK pieces included).
 *
 * Ranked in two steps. First the best COARSE_WINDOW matches by ts_rank per query word (weighted by
 * field, normalization 1) times the word's idf, ln(1 + (N - df + 0.5) / (df + 0.5)), summed: ts_rank
 * alone knows no idf, and "why did we switch to jose" would weigh "switch" as much as "jose". Then
 * those by BM25 as SQLite's FTS5 computes it (query below). df and N come from the GIN index (a count
 * per word), remembered for a minute. On the benchmark (docs/search.md) the first step alone gave
 * recall@5 0.88 and MRR 0.73, with the second 0.91 and 0.77, as SQLite.
 *
 * Every search runs in a read transaction with sequential scans off: the planner prices `tsv @@ q` as
 * a cheap filter, not knowing each row's tsvector is TOASTed, and for a common word chose a scan that
 * read 411 MB (640 ms at 100,000 records) where the GIN bitmap reads 16 MB (57 ms cold, docs/search.md).
 */
const RANK_WEIGHTS = `{${(WEIGHTS.body / WEIGHTS.title).toFixed(3)},${(WEIGHTS.meta / WEIGHTS.title).toFixed(3)},${(WEIGHTS.err / WEIGHTS.title).toFixed(3)},1}`;
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_WORD = 256;
const STATS_TTL_MS = 60_000;
/** Records from which BM25's mean length is read from a 2 % sample of pages. */
const SAMPLE_FROM = 20_000;

const lexeme = (t: string) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The tsvector literal of a document: every word with its positions and field weight. */
export function tsvectorLiteral(d: SearchDoc): string {
  const places = new Map<string, string[]>();
  let position = 0;
  const fields: [string[], string][] = [
    [d.terms.title, 'A'],
    [d.terms.err, 'B'],
    [d.terms.meta, 'C'],
    [d.terms.body, 'D'],
  ];
  for (const [terms, weight] of fields) {
    for (const t of terms) {
      position = Math.min(position + 1, MAX_POSITION);
      let list = places.get(t);
      if (!list) places.set(t, (list = []));
      if (list.length < MAX_POSITIONS_PER_WORD) list.push(`${position}${weight === 'D' ? '' : weight}`);
    }
  }
  return [...places].map(([t, ps]) => `${lexeme(t)}:${ps.join(',')}`).join(' ');
}

/** One document per (record, kind), the last given: one INSERT ... ON CONFLICT may not touch a row twice. */
function latestPerRecord(docs: SearchDoc[]): SearchDoc[] {
  return [...new Map(docs.map((d) => [`${d.kind} ${d.record_id}`, d])).values()];
}

/** Rows per INSERT, and the tsvector text one may carry: a record's words are capped (MAX_FIELD_TERMS a field), not its count of them. */
const INSERT_ROWS_MAX = 500;
const INSERT_CHARS_MAX = 4 * 1024 * 1024;

/**
 * The documents as multi-row INSERTs: a batch of 200 records written one INSERT each cost 200 round
 * trips, each a socket write on the event loop and a parse and plan in PostgreSQL (the writes were
 * ~8 % of the event loop in a POST profile, beside the requests they competed with).
 */
function* insertGroups(docs: SearchDoc[]): Generator<{ d: SearchDoc; tsv: string }[]> {
  let rows: { d: SearchDoc; tsv: string }[] = [];
  let chars = 0;
  for (const d of docs) {
    const tsv = tsvectorLiteral(d);
    if (rows.length > 0 && (rows.length === INSERT_ROWS_MAX || chars + tsv.length > INSERT_CHARS_MAX)) {
      yield rows;
      rows = [];
      chars = 0;
    }
    rows.push({ d, tsv });
    chars += tsv.length;
  }
  if (rows.length > 0) yield rows;
}

interface DocStats {
  at: number;
  n: number;
  /** Mean distinct words per record (BM25's average length). */
  avg: number;
}
/** Per database: the record count, and each word's record count (df), remembered for STATS_TTL_MS. */
interface Stats {
  docs?: DocStats;
  df: Map<string, { at: number; n: number }>;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- keyed by any Kysely instance (a Kysely<Database> is not a Kysely<unknown>)
const statsOf = new WeakMap<Kysely<any>, Stats>();
const COARSE_WINDOW = 150;

/** N, the mean length and the df of each term, from the cache or counted by `trx`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function loadStats(db: Kysely<any>, trx: Kysely<any>, terms: string[]) {
  const now = Date.now();
  let s = statsOf.get(db);
  if (!s) statsOf.set(db, (s = { df: new Map() }));
  if (!s.docs || now - s.docs.at > STATS_TTL_MS) {
    // The mean length from a sample of pages once the index is large: reading every tsvector took 0.5 s at 100,000 records.
    const n = Number((await sql<{ n: string }>`select count(*) as n from search_docs`.execute(trx)).rows[0].n);
    const sampled = n > SAMPLE_FROM ? (await sql<{ avg: string | null }>`select avg(length(tsv)) as avg from search_docs tablesample system (2) repeatable (1)`.execute(trx)).rows[0].avg : null;
    const avg = sampled ?? (await sql<{ avg: string | null }>`select avg(length(tsv)) as avg from search_docs`.execute(trx)).rows[0].avg;
    s.docs = { at: now, n, avg: Number(avg ?? 1) || 1 };
  }
  if (s.df.size > 50_000) s.df.clear();
  for (const t of terms) {
    const known = s.df.get(t);
    if (known && now - known.at <= STATS_TTL_MS) continue;
    const r = await sql<{ n: string }>`select count(*) as n from search_docs where tsv @@ ${lexeme(t)}::tsquery`.execute(trx);
    s.df.set(t, { at: now, n: Number(r.rows[0].n) });
  }
  const n = s.docs.n;
  // At most N: a word's count can be newer than N's (records written since N was counted, within
  // STATS_TTL_MS), and more of them than N made both logarithms below NaN (a 500 for every result).
  const df = (t: string) => Math.min(n, s.df.get(t)?.n ?? 0);
  return {
    n,
    avg: s.docs.avg,
    df,
    /** ts_rank's weight per word (always positive). */
    weight: (t: string) => Math.log(1 + (n - df(t) + 0.5) / (df(t) + 0.5)),
    /** BM25's idf as FTS5 computes it. */
    idf: (t: string) => Math.max(1e-6, Math.log((n - df(t) + 0.5) / (df(t) + 0.5))),
  };
}
type Loaded = Awaited<ReturnType<typeof loadStats>>;

export const pgSearch: SearchAdapter = {
  async write(trx, docs, removed) {
    const pairs = removed.flatMap((r) => r.kinds.map((kind) => sql`(${r.record_id}, ${kind})`));
    if (pairs.length > 0) await sql`delete from search_docs where (record_id, kind) in (${sql.join(pairs)})`.execute(trx);
    for (const rows of insertGroups(latestPerRecord(docs))) {
      await sql`insert into search_docs (kind, record_id, owner_key, project, title, updated_at, tsv)
        values ${sql.join(rows.map(({ d, tsv }) => sql`(${d.kind}, ${d.record_id}, ${d.owner_key}, ${d.project}, ${d.title}, ${d.updated_at}, ${tsv}::tsvector)`))}
        on conflict (record_id, kind) do update set owner_key = excluded.owner_key, project = excluded.project, title = excluded.title,
          updated_at = excluded.updated_at, tsv = excluded.tsv`.execute(trx);
    }
  },

  query(db, q) {
    return db.transaction().execute(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      // Bitmap scans only: a match is then decided by the GIN index, never by reading a TOASTed tsvector.
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_indexscan = off`.execute(trx);
      const st = await loadStats(db, trx, q.terms);
      // A word no record holds adds nothing to the count or the rank (and costs a ts_rank per match).
      const terms = q.terms.filter((t) => st.df(t) > 0);
      if (terms.length === 0) return { candidates: [], total: 0 };
      q = { ...q, terms };
      const matches = await countUpTo(trx, filters(q, q.terms), RANK_ALL + 1);
      const total = Math.min(matches, TOTAL_CAP + 1);
      if (matches <= RANK_ALL) return { candidates: await ranked(trx, st, q, q.terms), total };
      // Bounded work (docs/search.md, "At 100,000 records"): rank the matches of the rarest words whose
      // matches in the whole index add up to at most RANK_ALL; when every word is more common than that,
      // the matches among the owners' newest records (about RANK_ALL of them).
      const selective = rarestWithin(q.terms, st.df);
      if (selective.length > 0) return { candidates: await ranked(trx, st, q, selective), total };
      // Enough of the newest records to hold about RANK_ALL matches, by the commonest word's share of the index.
      const share = Math.max(...q.terms.map((t) => st.df(t))) / Math.max(st.n, 1);
      const since = await newestSince(trx, q.ownerKeys, Math.ceil(RANK_ALL / Math.min(1, Math.max(share, RANK_ALL / Math.max(st.n, 1)))));
      const recent = await ranked(trx, st, q, q.terms, since);
      // Matches all older than the newest records (rare): rank them all rather than return too few.
      return { candidates: recent.length >= q.window || since === undefined ? recent : await ranked(trx, st, q, q.terms), total };
    });
  },
};

/** How many records `where` selects, counted up to `most` (a bitmap scan stops there). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function countUpTo(trx: Kysely<any>, where: ReturnType<typeof filters>, most: number): Promise<number> {
  const r = await sql<{ n: string }>`select count(*) as n from (select 1 from search_docs where ${where} limit ${most}) as m`.execute(trx);
  return Number(r.rows[0]?.n ?? 0);
}

/** The updated_at from which each owner has at least `count` records (index-only scans of search_docs_recent). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function newestSince(trx: Kysely<any>, ownerKeys: string[], count: number): Promise<string | undefined> {
  let since: string | undefined;
  await sql`set local enable_indexscan = on`.execute(trx);
  for (const key of ownerKeys) {
    const r = await sql<{ updated_at: string }>`select updated_at from search_docs where owner_key = ${key}
      order by updated_at desc offset ${count - 1} limit 1`.execute(trx);
    const at = r.rows[0]?.updated_at;
    if (at !== undefined && (since === undefined || at > since)) since = at;
  }
  await sql`set local enable_indexscan = off`.execute(trx);
  return since;
}

/**
 * Two steps: the best COARSE_WINDOW matches of `terms` by the ts_rank score (updated since `since`,
 * when given), then those ranked by BM25 as FTS5's bm25() computes it (k1 1.2, b 0.75, field weights, FTS5's
 * idf), each word's weighted count read from the tsvector (unnest), the length being its distinct words.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function ranked(trx: Kysely<any>, st: Loaded, q: EngineQuery, terms: string[], since?: string): Promise<Candidate[]> {
  const where = since === undefined ? filters(q, terms) : sql`${filters(q, terms)} and updated_at >= ${since}`;
  const score = sql.join(
    terms.map((t) => sql`${sql.lit(Number(st.weight(t).toFixed(6)))} * ts_rank(${RANK_WEIGHTS}::float4[], tsv, ${lexeme(t)}::tsquery, 1)`),
    sql` + `,
  );
  const { title, err, meta, body } = WEIGHTS;
  const rows = await sql<Candidate>`with c as (
      select kind, record_id, owner_key, project, title, updated_at, tsv from search_docs where ${where}
      order by (${score}) desc, record_id limit ${Math.max(COARSE_WINDOW, q.window)})
    select kind, record_id, owner_key, project, title, updated_at, (
      select coalesce(sum(q.idf * t.f * 2.2 / (t.f + 1.2 * (0.25 + 0.75 * length(c.tsv) / ${sql.lit(Number(st.avg.toFixed(3)))}))), 0)
      from (select u.lexeme, sum(case w when 'A' then ${sql.lit(title)} when 'B' then ${sql.lit(err)} when 'C' then ${sql.lit(meta)} else ${sql.lit(body)} end) as f
            from unnest(c.tsv) as u, unnest(u.weights) as w where u.lexeme = any(${terms}::text[]) group by u.lexeme) as t
      join unnest(${terms}::text[], ${terms.map(st.idf)}::float8[]) as q(term, idf) on q.term = t.lexeme
    ) as rel
    from c order by rel desc, record_id limit ${q.window}`.execute(trx);
  return rows.rows.map((r) => ({ ...r, rel: Number(r.rel) }));
}

function filters(q: EngineQuery, terms: string[]) {
  const any = terms.map(lexeme).join(' | ');
  const parts = [sql`tsv @@ ${any}::tsquery`, sql`owner_key in (${sql.join(q.ownerKeys)})`, sql`kind in (${sql.join(q.kinds)})`];
  if (q.project !== undefined) parts.push(sql`project = ${q.project}`);
  return sql.join(parts, sql` and `);
}
