import type { Kysely } from 'kysely';
import { sqliteReaders } from '../../db/sqlite/sqlite-readers.js';
import { idleWorkerPool } from '../../runtime/worker-pool.js';
import type { IndexedBatch } from './substring/sqlite-index-file.js';
import type { IndexTask } from './search-index.worker.js';

type Pool = ReturnType<typeof idleWorkerPool>;
const threads = new Map<string, Pool>();

/**
 * SQLite: the one thread that writes the search index file of `db` (search-index.worker.ts), shared by
 * its two indexers (substring/search-indexer.ts and search.indexer.ts). Two threads took turns at the
 * file's write lock, and under a long queue one of them waited past busy_timeout (SQLITE_BUSY).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function searchIndexThread(db: Kysely<any>) {
  const file = sqliteReaders(db)?.file;
  if (!file) throw new Error('the SQLite search index needs the database opened by openDatabase');
  let pool = threads.get(file);
  if (!pool) {
    pool = idleWorkerPool(new URL('./search-index.worker', import.meta.url), {
      maxThreads: 1,
      // FTS5's pending words are held by SQLite, outside the heap; the heap holds a batch's records and tokens.
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 },
    });
    threads.set(file, pool);
  }
  const opened = pool;
  return {
    run: async (task: Omit<IndexTask, 'file'>): Promise<IndexedBatch> => (await (await opened.open()).run({ ...task, file })) as IndexedBatch,
    /** Ends the thread (tasks in flight finish); the next run starts it again. */
    close: opened.close,
  };
}
