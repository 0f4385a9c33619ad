import type { Piscina } from 'piscina';

type PoolOptions = ConstructorParameters<typeof Piscina>[0] & {};

/**
 * A piscina pool for one of our worker files. A worker that dies (out of its heap limit, or a crash)
 * rejects the task it was running, and the caller answers that request; piscina also emits 'error'
 * on the pool, which without a listener would end the whole process for every client.
 */
export async function startWorkerPool(options: PoolOptions): Promise<Piscina> {
  const { Piscina } = await import('piscina');
  const pool = new Piscina(options);
  pool.on('error', () => {});
  return pool;
}
