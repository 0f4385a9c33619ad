import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { transactionAlone } from '../../db/sqlite/group-commit.js';
import type { Db } from '../../db/types.js';
import { busyPacer } from '../../runtime/busy-pacer.js';
import { searchIndexThread } from './search-index-thread.js';
import type { SearchAdapter } from './search.engine.js';
import { indexRecords, type QueuedRecord } from './search.index-batch.js';

/** Queue rows indexed per transaction. */
const BATCH = 200;
/** SQLite: a batch on the index thread also stops at this much text (its heap holds the batch; 200 queued 1 MB sheets would not fit). */
const BATCH_CHARS = 2 * 1024 * 1024;
/** A search waits for at most this many queued rows; a longer queue (the backfill after migration 038) is indexed in the background. */
export const SEARCH_WAITS_FOR = 2_000;
/** After a commit, the background pass starts this much later (writes in between join it). */
const NUDGE_DELAY_MS = 20;
/**
 * PostgreSQL: the share of the event loop's time background batches take while requests keep it busy
 * (busyPacer). A batch's reading, tokenizing and statements run on the event loop there (~100 µs a 2 KB
 * sheet): unpaced, the index kept up with 50 clients creating sheets and took a fifth of their
 * throughput (POST 2,147-2,494 req/s with it, 3,151 with no batch during the part). Paced, the queue
 * grows during such a burst and is indexed after it; a search still waits for what is queued
 * (catchUp), and a drain a search waits for is not paced.
 */
const BACKGROUND_BUSY_SHARE = 0.25;
/** PostgreSQL: one process drains the queue at a time (key of pg_advisory_xact_lock). */
const DRAIN_LOCK = 5_505_505;

/**
 * Keeps the index up to date with the record tables: triggers queue every changed record
 * (search_queue, migration 038); a drain indexes the queue in batches, each in one transaction that
 * re-reads the records, writes their words and deletes exactly the queue rows it read. A record
 * changed meanwhile was queued again and is indexed by the next batch. Drains run one at a time in a
 * process, and on PostgreSQL one at a time across processes (an advisory lock), so an older text never
 * overwrites a newer one. On SQLite a batch runs on the search index thread instead, which writes the index
 * file and its mark; the queue rows up to the mark are then dropped here (decision 0013).
 *
 * When: after each commit (nudge, ~20 ms later) and before each search (catchUp), so a search sees
 * every write that committed before it started, unless more than SEARCH_WAITS_FOR rows are queued.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function createSearchIndexer(db: Kysely<any>, adapter: SearchAdapter, onError: (err: unknown) => void) {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  // SQLite: batches run on the search index thread, which writes only the index file and its mark; the
  // queue rows up to the mark are then dropped here, in a short transaction (decision 0013).
  const thread = dialectOf(db) === 'sqlite' ? searchIndexThread(db) : undefined;
  // SQLite's batches run on their own thread: nothing to pace on the event loop.
  const pacer = thread ? undefined : busyPacer(BACKGROUND_BUSY_SHARE);
  /** Searches waiting for the running drain (catchUp): while there are any, it does not rest. */
  let waiting = 0;
  /** Ends the running drain's rest early, when a search starts waiting for it. */
  let wake: (() => void) | undefined;

  async function batch(): Promise<number> {
    if (thread) {
      const { indexed, mark } = await thread.run({ index: 'unified', limit: BATCH, maxChars: BATCH_CHARS });
      if (indexed > 0) await transactionAlone(db as Db, (trx) => sql`delete from search_queue where seq <= ${mark}`.execute(trx));
      return indexed;
    }
    return transactionAlone(db as Db, async (trx) => {
      await sql`select pg_advisory_xact_lock(${DRAIN_LOCK})`.execute(trx);
      const queued = (await sql<QueuedRecord>`select seq, kind, record_id from search_queue order by seq limit ${BATCH}`.execute(trx)).rows;
      if (queued.length === 0) return 0;
      await indexRecords(trx, adapter, queued);
      await sql`delete from search_queue where seq in (${sql.join(queued.map((q) => q.seq))})`.execute(trx);
      return queued.length;
    });
  }

  /** Drains up to `most` rows (all when undefined), one pass at a time. */
  function drain(most = Infinity): Promise<void> {
    const run = async () => {
      for (let done = 0; done < most && !closed;) {
        const rest = pacer?.();
        const n = await batch();
        if (n === 0) break;
        done += n;
        // SQLite's driver answers synchronously, so back-to-back batches would hold the event loop for a whole
        // backlog (68,000 queued sheets kept a server from starting): requests run between batches.
        const restMs = waiting > 0 ? 0 : (rest?.() ?? 0);
        await new Promise<void>((resolve) => {
          if (restMs === 0) return setImmediate(resolve);
          const timer = setTimeout(resolve, restMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    };
    const next = (running ?? Promise.resolve()).then(run, run);
    const tracked = next.finally(() => {
      if (running === tracked) running = undefined;
    });
    running = tracked;
    return tracked;
  }

  async function queued(): Promise<number> {
    const r = await sql<{ n: number | string }>`select count(*) as n from (select 1 from search_queue limit ${SEARCH_WAITS_FOR + 1}) as q`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  }

  return {
    /** Before a search: index what is queued, unless the queue is a backfill's (then in the background). */
    async catchUp(): Promise<void> {
      const n = await queued();
      if (n === 0) return;
      if (n > SEARCH_WAITS_FOR) {
        this.nudge();
        return;
      }
      waiting++;
      wake?.();
      try {
        await drain();
      } finally {
        waiting--;
      }
    },
    /** After a commit: a background pass soon. */
    nudge(): void {
      if (closed || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        drain().catch(onError);
      }, NUDGE_DELAY_MS);
      timer.unref?.();
    },
    drain,
    queued,
    async close(): Promise<void> {
      closed = true;
      wake?.();
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      await thread?.close();
    },
  };
}
export type SearchIndexer = ReturnType<typeof createSearchIndexer>;
