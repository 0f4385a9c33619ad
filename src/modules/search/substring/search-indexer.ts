import type { Kysely } from 'kysely';
import { dialectOf } from '../../../db/dialect.js';
import { indexPendingTokens, pendingTokenBacklog } from './pg-token-indexer.js';
import { searchIndexThread } from '../search-index-thread.js';
import { forgetIndexedRows } from './pending.js';
import type { SearchIndex } from './search-index.js';

/**
 * SQLite rows per indexing transaction, on the index's own thread: ~40 µs a row at 2 KB. Larger
 * batches save little per row and leave the rows queued (searched by LIKE) for longer.
 */
const BATCH = 128;
/** FTS5 holds a transaction's trigrams in memory until COMMIT: a batch also stops at this much text. */
const BATCH_CHARS = 256 * 1024;
/**
 * PostgreSQL sheets per tokenizing transaction: ~1.7 ms each in batches of 32, ~1.5 in 64-128 (the
 * database's time; the event loop waits on it). 64 holds the batch's rows locked ~100 ms: a writer
 * editing one of those sheets waits that long at most.
 */
const PG_BATCH = 64;
/**
 * While fewer PostgreSQL sheets than this wait, the indexer rests as long as its last batch took: it
 * uses at most half of one database core, and a burst of writes keeps the rest (searches meanwhile test
 * the waiting sheets' texts, ~5 µs each). A larger backlog is worked off without rests.
 */
const PG_YIELD_BELOW = 5000;
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

/**
 * Keeps the search index of `index` up to date with the rows writes left for it, a batch at a time
 * with the event loop free between batches. SQLite: the FTS index in its own file, written on a thread
 * of its own (sqlite-index-file.ts), from the queue of migration 033.
 * PostgreSQL: the token index, from the rows migration 032 marks pending (the sheets' index only);
 * there the database does the work, and several processes share it (rows are taken `skip locked`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function startSearchIndexer(db: Kysely<any>, index: SearchIndex, onError: (err: unknown) => void): SearchIndexer {
  let scheduled = false;
  let running: Promise<void> | undefined;
  let closed = false;
  let failing = false;
  const pg = dialectOf(db) === 'postgres';
  const thread = pg ? undefined : sqliteIndexThread(db, index);
  const indexBatch = thread ? thread.indexBatch : () => indexPendingTokens(db, PG_BATCH, { alone: true });
  /** How long to wait before the next batch, after one of `n` rows that took `ms`. */
  const pauseAfter = async (n: number, ms: number) => (pg && n === PG_BATCH && (await pendingTokenBacklog(db, PG_YIELD_BELOW)) < PG_YIELD_BELOW ? ms : 0);

  const schedule = (delayMs = GATHER_MS) => {
    if (scheduled || closed) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      if (running || closed) return void running?.then(() => schedule());
      const started = performance.now();
      running = indexBatch()
        .then(async (n) => {
          if (n > 0) schedule(await pauseAfter(n, performance.now() - started)); // until the queue is empty
        })
        .then(() => {
          failing = false;
        })
        .catch((err) => {
          // Once per run of failures: with the database away every sweep fails until it is back.
          if (!failing) onError(err);
          failing = true;
        })
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
      if (closed) await thread?.close(); // a drain after close (tests) started the thread again
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      await running;
      await thread?.close();
    },
  };
}

/**
 * SQLite: batches run on the search index thread (src/modules/search/search-index.worker.ts), which writes
 * only the index file; then the event loop drops the rows it took from the database's queue.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
function sqliteIndexThread(db: Kysely<any>, index: SearchIndex) {
  const thread = searchIndexThread(db);
  return {
    async indexBatch(): Promise<number> {
      const { indexed, mark } = await thread.run({ index: 'sheets-q', limit: BATCH, maxChars: BATCH_CHARS });
      if (indexed > 0) await forgetIndexedRows(db, index, mark);
      return indexed;
    },
    close: thread.close,
  };
}
