import { idleWorkerPool } from '../../runtime/worker-pool.js';
import type { IndexedBatch } from './substring/sqlite-index-file.js';
import type { IndexTask } from './search-index.worker.js';

type Pool = ReturnType<typeof idleWorkerPool>;
const threads = new Map<string, Pool>();

/**
 * SQLite: the one thread that writes the search index file of `file` (search-index.worker.ts), shared by
 * its two indexers (substring/search-indexer.ts and search.indexer.ts). Two threads took turns at the
 * file's write lock, and under a long queue one of them waited past busy_timeout (SQLITE_BUSY).
 */
export function searchIndexThread(file: string) {
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
    run: async (task: IndexTask): Promise<IndexedBatch> => (await (await opened.open()).run(task)) as IndexedBatch,
    /** Ends the thread (tasks in flight finish); the next run starts it again. */
    close: opened.close,
  };
}
