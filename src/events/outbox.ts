import type { Clock } from '../clock.js';
import { dialectOf } from '../db/dialect.js';
import { createGroupCommit } from '../db/group-commit.js';
import { compiledInsert } from '../db/statement-cache.js';
import type { Db, Trx } from '../db/types.js';
import { newId } from '../ids.js';
import { EVENT_SCHEMAS, type EventData, type EventName } from './catalog.js';

export interface Outbox {
  /** Writes the event in the caller's transaction; it exists only if that transaction commits. */
  emit<E extends EventName>(trx: Trx, userId: string, event: E, data: EventData<E>): Promise<string>;
  /**
   * Called after a commit that may have written events; wakes delivery at once instead of on a poll tick.
   * `deliveriesDue`: the commit made existing deliveries due (a redeliver), so the worker claims too;
   * a plain event commit only needs the worker's fan-out, which leases the new deliveries itself.
   */
  committed(opts?: { deliveriesDue?: boolean }): void;
  onCommitted(listener: (deliveriesDue: boolean) => void): () => void;
}

const insertEvent = compiledInsert('outbox', ['id', 'user_id', 'event', 'data', 'created_at', 'dispatched_at']);

export function createOutbox(clock: Clock): Outbox {
  const listeners = new Set<(deliveriesDue: boolean) => void>();
  return {
    async emit(trx, userId, event, data) {
      const checked = EVENT_SCHEMAS[event].parse(data);
      const now = clock.now();
      const id = newId('evt', now.getTime());
      await insertEvent(trx, { id, user_id: userId, event, data: JSON.stringify(checked), created_at: now.toISOString(), dispatched_at: null });
      return id;
    },
    committed(opts) {
      const deliveriesDue = opts?.deliveriesDue ?? false;
      for (const listener of listeners) listener(deliveriesDue);
    },
    onCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type TxRunner = <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>;

/**
 * Runs `fn` in one transaction, then tells the outbox so the webhook worker wakes. On SQLite
 * transactions that queue up behind each other share one COMMIT (src/db/group-commit.ts).
 */
export function createTxRunner(db: Db, outbox: Outbox): TxRunner {
  if (dialectOf(db) === 'sqlite') return createGroupCommit(db, () => outbox.committed());
  return async (fn) => {
    const result = await db.transaction().execute(fn);
    outbox.committed();
    return result;
  };
}
