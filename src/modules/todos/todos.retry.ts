/**
 * PostgreSQL only: a deadlock between syncs that name the same tasks in different orders, or a
 * rename by id onto a content key that a concurrent sync took first. The whole transaction is
 * rolled back, so it simply runs again.
 */
const RETRYABLE = new Set(['40P01', '40001', '23505']);
/** Runs of a sync's transaction, and tries of its content-key insert, before the error stands. */
export const ATTEMPTS = 3;

export async function retried<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= ATTEMPTS || !RETRYABLE.has(String((err as { code?: unknown }).code))) throw err;
    }
  }
}
