import type { Piscina } from 'piscina';

type PoolOptions = Omit<NonNullable<ConstructorParameters<typeof Piscina>[0]>, 'filename'>;

/** src/ runs as TypeScript (tsx) and build/ as JavaScript; a worker file has the extension of its caller. */
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * A piscina pool for one of our worker files (`worker`: its URL without the extension). A worker
 * that dies (out of its heap limit, or a crash) rejects the task it was running, and the caller
 * answers that request; piscina also emits 'error' on the pool, which without a listener would end
 * the whole process for every client.
 */
export async function startWorkerPool(worker: URL, options: PoolOptions): Promise<Piscina> {
  const { Piscina } = await import('piscina');
  // 'async': between tasks the worker waits with Atomics.waitAsync, so its event loop keeps running.
  // piscina's default ('sync') blocks the thread in Atomics.wait, which stops its timers: its idle
  // heap collection (src/runtime/idle-gc.ts) and V8's own memory reducer then never ran, and a reader
  // thread held ~80 MB of garbage until it exited.
  const pool = new Piscina({ atomics: 'async', ...options, filename: `${worker.href}${EXT}` });
  pool.on('error', () => {});
  return pool;
}

/** How long a background pool's thread waits for work before it exits, taking its heap out of the RSS. */
const IDLE_EXIT_MS = 15_000;

/**
 * A pool of `worker` started at its first use (`open`), whose threads exit after IDLE_EXIT_MS without work:
 * what each of our background workers wants. `close` ends it (letting tasks in flight finish); a later
 * `open` starts it again.
 */
export function idleWorkerPool(worker: URL, options: Pick<PoolOptions, 'maxThreads' | 'resourceLimits'>) {
  let pool: Promise<Piscina> | undefined;
  return {
    open: (): Promise<Piscina> => (pool ??= startWorkerPool(worker, { minThreads: 0, idleTimeout: IDLE_EXIT_MS, ...options })),
    async close(): Promise<void> {
      const closing = pool;
      pool = undefined;
      await (await closing)?.close();
    },
  };
}
