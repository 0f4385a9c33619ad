/** One fixed window of one key: its count and when it began. */
interface Window {
  current: number;
  startMs: number;
}

type Reply = (err: Error | null, res: { current: number; ttl: number }) => void;

/** A sweep of ended windows runs when the map has grown to this many since the last one (at least). */
const MIN_SWEEP_SIZE = 1024;

/**
 * The in-process counter store for @fastify/rate-limit (given as its `store` option when there is no
 * Redis), with the same fixed one-minute windows as its own LocalStore, with two fixes:
 *
 * - LocalStore hands its live counter object to the callback, and the plugin reads `current` from it
 *   only after an await. When many requests of one account are counted in the same tick (40 parallel
 *   requests resumed by one shared authentication read), every one of them read the count after the
 *   last increment: 40 requests let 2 through instead of 30. Each answer here is a copy taken at its
 *   own increment.
 * - LocalStore keeps at most 5000 keys and evicts the least recently used, which resets that
 *   account's count. Here a window lives until it ends; ended ones are swept as the map grows.
 */
export class MemoryWindowStore {
  private readonly windows = new Map<string, Window>();
  private sweepAt = MIN_SWEEP_SIZE;

  incr(key: string, cb: Reply, timeWindow: number): void {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.startMs + timeWindow <= now) {
      w = { current: 0, startMs: now };
      this.windows.set(key, w);
      if (this.windows.size >= this.sweepAt) this.sweep(now, timeWindow);
    }
    w.current++;
    cb(null, { current: w.current, ttl: w.startMs + timeWindow - now });
  }

  /** The count without adding to it (the plugin's `{ increment: false }`). */
  read(key: string, cb: Reply, timeWindow: number): void {
    const now = Date.now();
    const w = this.windows.get(key);
    if (!w || w.startMs + timeWindow <= now) cb(null, { current: 0, ttl: 0 });
    else cb(null, { current: w.current, ttl: w.startMs + timeWindow - now });
  }

  /** Called by the plugin for a route with its own limit (none here): a store of its own. */
  child(): MemoryWindowStore {
    return new MemoryWindowStore();
  }

  private sweep(now: number, timeWindow: number) {
    for (const [key, w] of this.windows) if (w.startMs + timeWindow <= now) this.windows.delete(key);
    this.sweepAt = Math.max(MIN_SWEEP_SIZE, this.windows.size * 2);
  }
}
