import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Gives memory back after a burst, once the thread is idle. V8 sizes the next major GC from the
 * live heap, so garbage from a burst (1 MB request bodies, their parsed columns and texts, in the
 * large-object space) stays until the heap nears that limit or V8's memory reducer runs, ~25 s
 * after the allocations stop: the process kept 300-600 MB after the bench, most of it garbage.
 * Two full GCs after `idleMs` without work (25-40 ms each at ~35 MB live) run while nobody waits,
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

let gcFunction: (() => void) | null | undefined;

/** `gc()` without starting node with --expose-gc: the flag is read when a context is created. */
function fullGc(): (() => void) | null {
  if (gcFunction === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gcFunction = vm.runInNewContext('gc') as () => void;
    } catch {
      gcFunction = null;
    }
  }
  return gcFunction;
}

export function startIdleCollector(opts: { idleMs: number; minGrowthBytes?: number; minWork?: number; onCollect?: (info: CollectInfo) => void }): IdleCollector {
  const minGrowth = opts.minGrowthBytes ?? 16 * 1024 * 1024;
  const minWork = opts.minWork ?? 1000;
  const gc = opts.idleMs > 0 ? fullGc() : null;
  let lastWork = 0;
  let armed = false;
  let work = 0;
  let after = v8.getHeapStatistics();
  const check = () => {
    if (!armed || Date.now() - lastWork < opts.idleMs) return;
    armed = false;
    const before = v8.getHeapStatistics();
    const usedBefore = before.used_heap_size;
    const grew = usedBefore - after.used_heap_size >= minGrowth || before.total_heap_size - after.total_heap_size >= minGrowth;
    if (!grew && work < minWork) return;
    work = 0;
    const started = performance.now();
    gc!();
    // The first collection frees the garbage; the second compacts the pages it left sparse, so they
    // go back to the OS (measured: heap 103 -> 57 MB committed; a third changed nothing).
    gc!();
    after = v8.getHeapStatistics();
    opts.onCollect?.({ ms: performance.now() - started, usedBefore, usedAfter: after.used_heap_size });
  };
  // Checked on a coarse timer, not one timer per touch: touch() runs on every request.
  const timer = gc ? setInterval(check, Math.max(10, Math.floor(opts.idleMs / 2))).unref() : undefined;
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
