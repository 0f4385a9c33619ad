import type { Kysely } from 'kysely';

/** The record kinds GET /v1/search covers, in the order `types` lists them by default. */
export const SEARCH_KINDS = ['sheet', 'session', 'solution', 'snippet', 'todo'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/**
 * One record as the index holds it: where it belongs (owner key, project) and its words by field.
 * Fields are weighted: title most, then errors (an error message, failed commands), then meta (tags,
 * project, files, language), then the body.
 */
export interface SearchDoc {
  kind: SearchKind;
  record_id: string;
  owner_key: string;
  project: string | null;
  title: string;
  updated_at: string;
  terms: { title: string[]; err: string[]; meta: string[]; body: string[] };
}

/** A record the index matched, before the service ranks it by recency and project. */
export interface Candidate {
  kind: SearchKind;
  record_id: string;
  owner_key: string;
  project: string | null;
  title: string;
  updated_at: string;
  /** Relevance from the database (BM25 on SQLite, idf-weighted ts_rank on PostgreSQL); higher is better. */
  rel: number;
}

export interface EngineQuery {
  terms: string[];
  ownerKeys: string[];
  kinds: SearchKind[];
  project?: string;
  /** How many of the best matches to return (the service ranks and pages within them). */
  window: number;
}

/** The one interface both databases answer: src/modules/search/search.sqlite.ts and search.pg.ts. */
export interface SearchAdapter {
  /** Writes `docs` (replacing their previous words) and removes `removed`, inside `trx`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  write(trx: Kysely<any>, docs: SearchDoc[], removed: { record_id: string; kinds: readonly SearchKind[] }[]): Promise<void>;
  /** The best `window` matches of any term among the given owners, kinds and project, and how many match (counted up to TOTAL_CAP + 1). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  query(db: Kysely<any>, q: EngineQuery): Promise<{ candidates: Candidate[]; total: number }>;
}

/** Field weights: the same ratios on both databases (bm25() column weights, ts_rank's {D,C,B,A}). */
export const WEIGHTS = { title: 4, err: 3, meta: 1.5, body: 1 } as const;

/**
 * A search ranks every match when there are at most this many; beyond, only the matches of its rarest
 * words, or the newest RANK_ALL matches when every word is that common (docs/search.md, "At 100,000
 * records"): the work of one search stays bounded however large an account grows.
 */
export const RANK_ALL = 1_000;

/** The rarest words (by `count`, words without matches left out) whose matches add up to at most RANK_ALL. */
export function rarestWithin(terms: string[], count: (term: string) => number): string[] {
  const out: string[] = [];
  let sum = 0;
  for (const t of terms.filter((t) => count(t) > 0).sort((a, b) => count(a) - count(b))) {
    if (sum + count(t) > RANK_ALL) break;
    sum += count(t);
    out.push(t);
  }
  return out;
}

/**
 * Matches are counted up to this many, the most a search pages through (offset + limit); an adapter's
 * total is at most TOTAL_CAP + 1, which the service reports as TOTAL_CAP with total_capped.
 */
export const TOTAL_CAP = 1_000;

/** A field keeps at most this many words (a 1 MB sheet's tail is not indexed word by word). */
export const MAX_FIELD_TERMS = 20_000;
