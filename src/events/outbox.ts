import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { dialectOf } from '../db/dialect.js';
import { createGroupCommit } from '../db/sqlite/group-commit.js';
import { runInsertBatch } from '../db/postgres/insert-batch.js';
import { compiledInsert } from '../db/sqlite/statement-cache.js';
import type { Db, Trx } from '../db/types.js';
import { newId } from '../ids.js';
import { EVENT_SCHEMAS, type EventContext, type EventData, type EventName } from './catalog.js';

/** What a commit tells its listeners. */
export interface Committed {
  /**
   * The commit made existing deliveries due (a redeliver), so the worker claims too; a plain event
   * commit only needs the worker's fan-out, which leases the new deliveries itself.
   */
  deliveriesDue: boolean;
  /** The workspaces whose events the commit wrote (event streams wake only theirs); undefined: not known, any. */
  accounts?: readonly string[];
}

export interface Outbox {
  /** This process's outbox, named in its NOTIFY payloads (src/events/wake-payload.ts). */
  readonly origin: string;
  /**
   * Writes the event in the caller's transaction; it exists only if that transaction commits. The
   * record's workspace's webhooks and streams get the event. The data gains `workspace_id` and
   * `actor_id` (the account that acted).
   */
  emit<E extends EventName>(trx: Trx, workspaceId: string, event: E, data: EventData<E>, actorId: string): Promise<string>;
  /** The workspaces `trx` wrote events for since the last call (the transaction runner's, once `fn` is done). */
  takeAccounts(trx: Trx): string[];
  /** Called after a commit that may have written events; wakes delivery and streams at once instead of on a poll tick. */
  committed(opts?: Partial<Committed>): void;
  onCommitted(listener: (deliveriesDue: boolean, commit: Committed) => void): () => void;
}

const insertEvent = compiledInsert('outbox', ['id', 'workspace_id', 'event', 'data', 'created_at', 'dispatched_at']);

export function createOutbox(clock: Clock): Outbox {
  const listeners = new Set<(deliveriesDue: boolean, commit: Committed) => void>();
  // By transaction object: a group commit's members share one, and each takes what it wrote.
  const written = new WeakMap<Trx, Set<string>>();
  return {
    origin: randomBytes(6).toString('hex'),
    async emit(trx, workspaceId, event, data, actorId) {
      const context: EventContext = { workspace_id: workspaceId, actor_id: actorId };
      const checked = { ...EVENT_SCHEMAS[event].parse(data), ...context };
      const now = clock.now();
      const id = newId('evt', now.getTime());
      await insertEvent(trx, { id, workspace_id: workspaceId, event, data: JSON.stringify(checked), created_at: now.toISOString(), dispatched_at: null });
      const accounts = written.get(trx);
      if (accounts) accounts.add(workspaceId);
      else written.set(trx, new Set([workspaceId]));
      return id;
    },
    takeAccounts(trx) {
      const accounts = written.get(trx);
      if (!accounts) return [];
      written.delete(trx);
      return [...accounts];
    },
    committed(opts) {
      const commit: Committed = { deliveriesDue: opts?.deliveriesDue ?? false, accounts: opts?.accounts };
      for (const listener of listeners) listener(commit.deliveriesDue, commit);
    },
    onCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface TxRunner {
  <T>(fn: (trx: Trx) => Promise<T>): Promise<T>;
  /**
   * For a transaction that only inserts new rows through compiledInsert (a create and its event): on
   * PostgreSQL they are written in one statement, one round trip instead of BEGIN, each INSERT and
   * COMMIT (src/db/postgres/insert-batch.ts); any other statement in `fn` throws. On SQLite the same as the runner.
   */
  insertsOnly<T>(fn: (trx: Trx) => Promise<T>): Promise<T>;
}

/**
 * Runs `fn` in one transaction, then tells the outbox so the webhook worker wakes. On SQLite
 * transactions that queue up behind each other share one COMMIT (src/db/sqlite/group-commit.ts).
 */
export function createTxRunner(db: Db, outbox: Outbox): TxRunner {
  if (dialectOf(db) === 'sqlite') {
    // Groups run one after another and each tells its listeners before the next starts, so the
    // accounts gathered here are exactly the committed group's (a member that failed adds none).
    const accounts = new Set<string>();
    const group = createGroupCommit(db, () => {
      const committed = [...accounts];
      accounts.clear();
      outbox.committed({ accounts: committed });
    });
    const run = <T>(fn: (trx: Trx) => Promise<T>) =>
      group(async (trx) => {
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn(trx);
        } catch (err) {
          outbox.takeAccounts(trx); // rolled back to its savepoint: its events are gone
          throw err;
        }
        for (const a of outbox.takeAccounts(trx)) accounts.add(a);
        return result;
      });
    return Object.assign(run, { insertsOnly: run });
  }
  // One of the two ways to run fn, then the outbox is told which accounts the commit wrote events for.
  const committing =
    (execute: <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>) =>
    async <T>(fn: (trx: Trx) => Promise<T>) => {
      let accounts: string[] = [];
      const result = await execute(async (trx) => {
        const value = await fn(trx);
        accounts = outbox.takeAccounts(trx);
        return value;
      });
      outbox.committed({ accounts });
      return result;
    };
  return Object.assign(
    committing((fn) => db.transaction().execute(fn)),
    { insertsOnly: committing((fn) => runInsertBatch(db, fn)) },
  );
}
