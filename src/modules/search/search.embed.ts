import type { Kysely } from 'kysely';
import { embed, type EmbeddingsConfig } from './search.embed-client.js';
import { nearest } from './search.embed-store.js';
import { createEmbedder } from './search.embedder.js';
import type { Candidate, SearchKind } from './search.engine.js';

/** The query is embedded within this long, or the search answers by keywords alone. */
export const QUERY_TIMEOUT_MS = 2_000;
/** Reciprocal rank fusion's constant: a record's fused score is the sum over the lists of 1 / (RRF_K + rank). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of the keyword and vector rankings (best first). The fused `rel` is scaled by
 * RRF_K, so the first of one list alone scores ~1 and the first of both ~2.
 */
export function fuse(keyword: Candidate[], vector: Candidate[]): Candidate[] {
  const out = new Map<string, Candidate>();
  for (const list of [keyword, vector]) {
    list.forEach((c, i) => {
      const key = `${c.kind}:${c.record_id}`;
      const add = RRF_K / (RRF_K + i + 1);
      const seen = out.get(key);
      out.set(key, seen ? { ...seen, rel: seen.rel + add } : { ...c, rel: add });
    });
  }
  return [...out.values()].sort((a, b) => b.rel - a.rel);
}

/**
 * Optional semantic search (EMBEDDINGS_URL and EMBEDDINGS_MODEL): the background embedder, and the
 * vector half of a search. Without configuration the service never creates this.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function createSemanticSearch(deps: { db: Kysely<any>; config: EmbeddingsConfig; drainIndex: () => Promise<void>; onError: (err: unknown, message: string) => void }) {
  const embedder = createEmbedder(deps);
  return {
    embedder,
    /**
     * The keyword candidates fused with the records nearest to the query; on any failure of the
     * endpoint (down, slow, malformed) the keyword candidates alone, and a log line.
     */
    async fused(keyword: Candidate[], q: { text: string; ownerKeys: string[]; kinds: SearchKind[]; project?: string; window: number }): Promise<{ candidates: Candidate[]; added: number }> {
      let vector: Float32Array;
      try {
        [vector] = await embed(deps.config, [q.text], QUERY_TIMEOUT_MS);
      } catch (err) {
        deps.onError(err, 'embedding a search query failed; answered by keywords only');
        return { candidates: keyword, added: 0 };
      }
      const near = await nearest(deps.db, { vector, model: deps.config.model, ownerKeys: q.ownerKeys, kinds: q.kinds, project: q.project, window: q.window, maxVectors: deps.config.maxVectors });
      const known = new Set(keyword.map((c) => `${c.kind}:${c.record_id}`));
      const added = near.filter((c) => !known.has(`${c.kind}:${c.record_id}`)).length;
      return { candidates: fuse(keyword, near), added };
    },
  };
}
export type SemanticSearch = ReturnType<typeof createSemanticSearch>;
