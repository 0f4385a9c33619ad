import type { Kysely } from 'kysely';
import { dialectOf } from './dialect.js';
import { indexPendingRows } from './search/pending.js';
import type { SearchIndex } from './search/search-index.js';

/** Rows per indexing transaction (fewer when their text passes 256 KB): ~10 ms of event loop at 2 KB a row. Larger batches save little per row and hold the loop longer. */
const BATCH = 32;
/**
 * How long after a write the indexer waits for more: writes arriving together then share one
 * transaction (per row ~1 ms alone, ~0.3 ms in a batch of 32). Searches meanwhile stay exact; a row
 * not indexed yet only ranks after the indexed matches.
 */
const GATHER_MS = 25;
/** Rows queued by another process on the same file, or a write that did not nudge, are picked up within this. */
const SWEEP_MS = 1000;

export interface SearchIndexer {
  /** A write may have queued rows: index them soon (GATHER_MS later, with whatever else was queued by then). */
  nudge(): void;
  /** Indexes until the queue is empty (tests, and shutdown). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

const none: SearchIndexer = { nudge() {}, drain: async () => {}, close: async () => {} };

/**
 * SQLite: keeps the FTS index of `index` up to date with the rows writes queue (migration 018), a
 * batch at a time with the event loop free between batches. PostgreSQL indexes as it writes: no-op.
 */
export function startSearchIndexer(db: Kysely<any>, index: SearchIndex, onError: (err: unknown) => void): SearchIndexer {
  if (dialectOf(db) !== 'sqlite') return none;
  let scheduled = false;
  let running: Promise<void> | undefined;
  let closed = false;
  const indexBatch = () => indexPendingRows(db, index, BATCH);

  const schedule = (delayMs = GATHER_MS) => {
    if (scheduled || closed) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      if (running || closed) return void running?.then(() => schedule());
      running = indexBatch()
        .then((n) => {
          if (n > 0) schedule(0); // until the queue is empty
        }, onError)
        .finally(() => {
          running = undefined;
        });
    }, delayMs).unref();
  };
  const sweep = setInterval(schedule, SWEEP_MS);
  sweep.unref();
  schedule(0);

  return {
    nudge: () => schedule(),
    async drain() {
      await running;
      while ((await indexBatch()) > 0);
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      await running;
    },
  };
}
