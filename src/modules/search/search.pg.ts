import { sql, type Kysely } from 'kysely';
import { WEIGHTS, type Candidate, type EngineQuery, type SearchAdapter, type SearchDoc } from './search.engine.js';

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
 */
const RANK_WEIGHTS = `{${(WEIGHTS.body / WEIGHTS.title).toFixed(3)},${(WEIGHTS.meta / WEIGHTS.title).toFixed(3)},${(WEIGHTS.err / WEIGHTS.title).toFixed(3)},1}`;
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_WORD = 256;
const STATS_TTL_MS = 60_000;

const lexeme = (t: string) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The tsvector literal of a document: every word with its positions and field weight. */
export function tsvectorLiteral(d: SearchDoc): string {
  const places = new Map<string, string[]>();
  let position = 0;
  const fields: [string[], string][] = [[d.terms.title, 'A'], [d.terms.err, 'B'], [d.terms.meta, 'C'], [d.terms.body, 'D']];
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

interface Stats {
  at: number;
  n: number;
  /** Mean distinct words per record (BM25's average length). */
  avg?: number;
}
const docCounts = new WeakMap<Kysely<any>, Stats>();
const termCounts = new WeakMap<Kysely<any>, Map<string, Stats>>();

async function idfs(db: Kysely<any>, terms: string[]): Promise<number[]> {
  const now = Date.now();
  let total = docCounts.get(db);
  if (!total || now - total.at > STATS_TTL_MS) {
    const r = await sql<{ n: string; avg: string | null }>`select count(*) as n, avg(length(tsv)) as avg from search_docs`.execute(db);
    total = { at: now, n: Number(r.rows[0].n), avg: Number(r.rows[0].avg ?? 1) || 1 };
    docCounts.set(db, total);
  }
  let cache = termCounts.get(db);
  if (!cache) termCounts.set(db, (cache = new Map()));
  if (cache.size > 50_000) cache.clear();
  const out: number[] = [];
  for (const t of terms) {
    let df = cache.get(t);
    if (!df || now - df.at > STATS_TTL_MS) {
      const r = await sql<{ n: string }>`select count(*) as n from search_docs where tsv @@ ${lexeme(t)}::tsquery`.execute(db);
      df = { at: now, n: Number(r.rows[0].n) };
      cache.set(t, df);
    }
    out.push(Math.log(1 + (total.n - df.n + 0.5) / (df.n + 0.5)));
  }
  return out;
}
const COARSE_WINDOW = 150;
const stats = (db: Kysely<any>) => ({ n: docCounts.get(db)?.n ?? 0, avg: docCounts.get(db)?.avg ?? 1 });
const dfOf = (db: Kysely<any>, t: string) => termCounts.get(db)?.get(t)?.n ?? 0;

export const pgSearch: SearchAdapter = {
  async write(trx, docs, removed) {
    for (const r of removed) await sql`delete from search_docs where record_id = ${r.record_id} and kind in (${sql.join(r.kinds)})`.execute(trx);
    for (const d of docs) {
      await sql`insert into search_docs (kind, record_id, owner_key, project, title, updated_at, tsv)
        values (${d.kind}, ${d.record_id}, ${d.owner_key}, ${d.project}, ${d.title}, ${d.updated_at}, ${tsvectorLiteral(d)}::tsvector)
        on conflict (record_id, kind) do update set owner_key = excluded.owner_key, project = excluded.project, title = excluded.title,
          updated_at = excluded.updated_at, tsv = excluded.tsv`.execute(trx);
    }
  },

  async query(db, q) {
    const weights = await idfs(db, q.terms);
    const any = q.terms.map(lexeme).join(' | ');
    const score = sql.join(
      q.terms.map((t, i) => sql`${sql.lit(Number(weights[i].toFixed(6)))} * ts_rank(${RANK_WEIGHTS}::float4[], tsv, ${lexeme(t)}::tsquery, 1)`),
      sql` + `,
    );
    const where = filters(q, any);
    // Two steps: the best COARSE_WINDOW by the ts_rank score, then those ranked by BM25 as FTS5's bm25()
    // computes it (k1 1.2, b 0.75, field weights, idf ln((N - df + 0.5) / (df + 0.5))), each word's
    // weighted count read from the tsvector (unnest), the length being its distinct words.
    const { title, err, meta, body } = WEIGHTS;
    const idf = q.terms.map((t) => Math.max(1e-6, Math.log((stats(db).n - dfOf(db, t) + 0.5) / (dfOf(db, t) + 0.5))));
    const rows = await sql<Candidate>`with c as (
        select kind, record_id, owner_key, project, title, updated_at, tsv from search_docs where ${where}
        order by (${score}) desc, record_id limit ${Math.max(COARSE_WINDOW, q.window)})
      select kind, record_id, owner_key, project, title, updated_at, (
        select coalesce(sum(q.idf * t.f * 2.2 / (t.f + 1.2 * (0.25 + 0.75 * length(c.tsv) / ${sql.lit(Number(stats(db).avg.toFixed(3)))}))), 0)
        from (select u.lexeme, sum(case w when 'A' then ${sql.lit(title)} when 'B' then ${sql.lit(err)} when 'C' then ${sql.lit(meta)} else ${sql.lit(body)} end) as f
              from unnest(c.tsv) as u, unnest(u.weights) as w where u.lexeme = any(${q.terms}::text[]) group by u.lexeme) as t
        join unnest(${q.terms}::text[], ${idf}::float8[]) as q(term, idf) on q.term = t.lexeme
      ) as rel
      from c order by rel desc, record_id limit ${q.window}`.execute(db);
    const total = await sql<{ n: string }>`select count(*) as n from search_docs where ${where}`.execute(db);
    return { candidates: rows.rows.map((r) => ({ ...r, rel: Number(r.rel) })), total: Number(total.rows[0]?.n ?? 0) };
  },
};

function filters(q: EngineQuery, any: string) {
  const parts = [sql`tsv @@ ${any}::tsquery`, sql`owner_key in (${sql.join(q.ownerKeys)})`, sql`kind in (${sql.join(q.kinds)})`];
  if (q.project !== undefined) parts.push(sql`project = ${q.project}`);
  return sql.join(parts, sql` and `);
}
