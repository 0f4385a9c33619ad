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
  // heap collection (src/lib/idle-gc.ts) and V8's own memory reducer then never ran, and a reader
  // thread held ~80 MB of garbage until it exited.
  const pool = new Piscina({ atomics: 'async', ...options, filename: `${worker.href}${EXT}` });
  pool.on('error', () => {});
  return pool;
}
