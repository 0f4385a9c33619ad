import { createRequire } from 'node:module';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Gives memory back after a burst, once the thread is idle. V8 sizes the next major GC from the
 * live heap, so garbage from a burst (1 MB request bodies, their parsed columns and texts, in the
 * large-object space) stays until the heap nears that limit or V8's memory reducer runs, ~25 s
 * after the allocations stop: the process kept 300-600 MB after the bench, most of it garbage.
 * A memory-reducing collection after `idleMs` without work (25-40 ms at ~35 MB live) runs while nobody waits,
 * and again only after the heap grew by `minGrowthBytes`, in use or committed: V8's own collections
 * during a burst can keep the used size near its last value while the committed pages stay grown
 * (the bench's last part, webhook deliveries, left 250 MB of RSS that way where the 32 MB of used
 * growth asked for before never came). A request that arrives during them waits for them once.
 * Also after `minWork` touches since the last collection, whatever the sizes: a collection that ran
 * while the heap held passing data (the search index's batch of 1 MB sheets after the bench's hostile
 * posts, 125 MB used) left a mark that the heap never grew past again, while 40 MB of pages that V8's
 * own collections had emptied since stayed committed (87 MB of V8 pages at 44 MB live: RSS 209 MB
 * after the bench, where one collection takes it under 170).
 */
export interface IdleCollector {
  /** Work happened: postpones the collection and arms it. */
  touch(): void;
  stop(): void;
}

export interface CollectInfo {
  ms: number;
  usedBefore: number;
  usedAfter: number;
}

/** How long a thread goes without work before it collects (the main thread: no HTTP request arriving). */
export const IDLE_COLLECT_MS = 2_000;

type Collection = (done: () => void) => void;

let collection: Collection | null | undefined;

/**
 * A memory-reducing collection: what V8 runs under memory pressure, asked for through an in-process
 * inspector session (HeapProfiler.collectGarbage; no port is opened). Beside freeing the garbage and
 * compacting, it gives back the young generation (two 16 MB semi-spaces after a load, shrunk to 1 MB)
 * and V8's pooled pages, which a plain gc() keeps: V8 shrinks them on its own only from a collection
 * after 5 s of low allocation, or in its memory reducer ~45 s after a load. Measured on Node 20 after
 * 3 s of allocation: RSS 85 MB after two gc() (31.9 ms), 51 MB after this (23.2 ms). Two gc() where
 * node is built without the inspector.
 */
function memoryReducingCollection(): Collection | null {
  if (collection !== undefined) return collection;
  try {
    // Not a static import: node built without the inspector throws when the module is loaded.
    const inspector = createRequire(import.meta.url)('node:inspector') as typeof import('node:inspector');
    // A session per collection: collectors of one thread (or one collection's disconnect still to come) never share one.
    collection = (done) => {
      const session = new inspector.Session();
      session.connect();
      session.post('HeapProfiler.collectGarbage', () => {
        // Disconnecting inside the session's own callback blocked the event loop for good (Node 20).
        setImmediate(() => session.disconnect());
        done();
      });
    };
  } catch {
    collection = twoFullGcs();
  }
  return collection;
}

/** `gc()` without starting node with --expose-gc (the flag is read when a context is created), twice: the first frees the garbage, the second compacts the pages it left sparse. */
function twoFullGcs(): Collection | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    return (done) => {
      gc();
      gc();
      done();
    };
  } catch {
    return null;
  }
}

export function startIdleCollector(opts: { idleMs: number; minGrowthBytes?: number; minWork?: number; onCollect?: (info: CollectInfo) => void }): IdleCollector {
  const minGrowth = opts.minGrowthBytes ?? 16 * 1024 * 1024;
  const minWork = opts.minWork ?? 1000;
  const collect = opts.idleMs > 0 ? memoryReducingCollection() : null;
  let lastWork = 0;
  let armed = false;
  let collecting = false;
  let work = 0;
  let after = v8.getHeapStatistics();
  const check = () => {
    if (!armed || collecting || Date.now() - lastWork < opts.idleMs) return;
    armed = false;
    const before = v8.getHeapStatistics();
    const usedBefore = before.used_heap_size;
    const grew = usedBefore - after.used_heap_size >= minGrowth || before.total_heap_size - after.total_heap_size >= minGrowth;
    if (!grew && work < minWork) return;
    work = 0;
    collecting = true;
    const started = performance.now();
    collect!(() => {
      collecting = false;
      after = v8.getHeapStatistics();
      opts.onCollect?.({ ms: performance.now() - started, usedBefore, usedAfter: after.used_heap_size });
    });
  };
  // Checked on a coarse timer, not one timer per touch: touch() runs on every request.
  const timer = collect ? setInterval(check, Math.max(10, Math.floor(opts.idleMs / 2))).unref() : undefined;
  return {
    touch() {
      lastWork = Date.now();
      armed = true;
      work++;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
