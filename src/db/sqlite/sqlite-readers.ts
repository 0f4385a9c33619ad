import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { CompiledQuery, Kysely } from 'kysely';
import { idleWorkerPool } from '../../runtime/worker-pool.js';
import { withWritesHeld } from './group-commit.js';

/**
 * Read-only SQLite connections in worker threads, for queries that can take long (a search for a
 * word in most sheets). better-sqlite3 is synchronous: on the main connection such a query stops
 * every other request until it ends. In a worker it only takes a core; WAL lets the workers' read
 * transactions run beside the main connection's writes. PostgreSQL needs none of this (its pool is
 * already asynchronous).
 */
export interface SqliteReaders {
  all<R>(query: CompiledQuery<R>): Promise<R[]>;
  /** How many queries run at once (one per thread). */
  readonly threads: number;
  /** The database file they read. */
  readonly file: string;
  close(): Promise<void>;
}

/** Checkpoint passes while writes go on, before the one with them held (see checkpointFully). */
const PASSES_BEFORE_HOLDING = 4;
/** How often the WAL is looked at; a checkpoint runs when it changed since the last one. */
const CHECKPOINT_EVERY_MS = 1000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
const byDb = new WeakMap<Kysely<any>, SqliteReaders>();

/**
 * Checkpoints until the WAL holds nothing the database file lacks, and returns the WAL's last change
 * time that is now in the file. Writes that go on during a checkpoint leave their pages in the WAL,
 * and SQLite starts the WAL over only after a checkpoint that leaves none. Under steady writes that
 * never happened: the WAL grew to the main connection's limit, whose commits then checkpointed on the
 * event loop (stalls of 60-140 ms every few seconds at 2,500 POST/s). So the checkpoint catches up
 * while writes go on (~100 ms for a second of them, then 20-30 ms a pass for what came meanwhile: a
 * pass costs at least the database file's fsync), and copies what is left with the group commits held
 * (requests are still read and answered meanwhile). The held pass is what every write waiting then
 * pays: after four passes it took 12-16 ms on average at 100,000 sheets, after two 31-34 ms.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function checkpointFully(db: Kysely<any>, checkpoint: () => Promise<unknown>, walChangedTime: () => Promise<number>, changedAt: number): Promise<number> {
  let copying = changedAt;
  for (let pass = 0; pass < PASSES_BEFORE_HOLDING; pass++) {
    await checkpoint();
    const now = await walChangedTime();
    if (now === copying) return now;
    copying = now;
  }
  return withWritesHeld(db, async () => (await checkpoint(), walChangedTime()));
}

/** Called where the SQLite file is opened: queries on `db` may then go to readers of `file`. */
/**
 * Two threads at least, also on two cores: a search for a word found in most sheets counts its
 * matches in two halves at once (src/modules/search/substring/owned-list.ts). They run at a lower priority
 * than the main thread, so requests there still come first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function registerSqliteReaders(db: Kysely<any>, file: string, threads = Math.max(2, Math.min(4, availableParallelism() - 1))): void {
  const readers = idleWorkerPool(new URL('./sqlite-reader.worker', import.meta.url), {
    maxThreads: threads,
    // A thread's heap stays in the RSS while it lives. Node's default young generation (tens of MB)
    // is far more than a reader's garbage (its answers); a smaller old-generation maximum also makes
    // V8 grow the heap by ~1.4x its live data instead of up to 4x. 512 MB still holds a page of the
    // biggest sheets.
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 },
  });
  // Checkpoints on a thread of their own, after writes only: an idle service lets the thread exit. Not
  // on a reader thread: those run at nice 19 (a held pass waited for CPU while every write waited for
  // it), and checkpoints every second kept a reader, with its heap and page cache, alive for good.
  const checkpointer = idleWorkerPool(new URL('./sqlite-checkpoint.worker', import.meta.url), {
    maxThreads: 1,
    // It holds no data of its own: a small heap keeps the thread's share of the RSS small.
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
  });
  const walChangedTime = async () => (await stat(`${file}-wal`)).mtimeMs;
  let walChangedAt = 0;
  let checkpointing = false;
  let closed = false;
  const checkpoints = setInterval(async () => {
    if (checkpointing || closed) return;
    checkpointing = true;
    try {
      const changedAt = await walChangedTime();
      if (changedAt !== walChangedAt) {
        const thread = await checkpointer.open();
        walChangedAt = await checkpointFully(db, () => thread.run({ file }), walChangedTime, changedAt);
      }
    } catch {
      // No WAL yet, or the pool is closing; the main connection's own checkpoint is the fallback.
    } finally {
      checkpointing = false;
    }
  }, CHECKPOINT_EVERY_MS);
  checkpoints.unref();
  byDb.set(db, {
    threads,
    file,
    async all<R>(query: CompiledQuery<R>) {
      const parameters = query.parameters.map((p) => (typeof p === 'boolean' ? Number(p) : p));
      return (await (await readers.open()).run({ file, sql: query.sql, parameters })) as R[];
    },
    async close() {
      closed = true;
      clearInterval(checkpoints);
      await Promise.all([readers.close(), checkpointer.close()]); // lets searches and a checkpoint in flight finish
    },
  });
}

/** The readers of a SQLite database, or undefined (PostgreSQL, or a database opened elsewhere). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export const sqliteReaders = (db: Kysely<any>): SqliteReaders | undefined => byDb.get(db);
