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
  workspaces?: readonly string[];
}

export interface Outbox {
  /** This process's outbox, named in its NOTIFY payloads (src/events/wake-payload.ts). */
  readonly origin: string;
  /**
   * Writes the event in the caller's transaction; it exists only if that transaction commits. The
   * record's workspace's webhooks and streams get the event. The data gains `workspace_id` and
   * `actor_id` (the workspace that acted).
   */
  emit<E extends EventName>(trx: Trx, workspaceId: string, event: E, data: EventData<E>, actorId: string): Promise<string>;
  /** The workspaces `trx` wrote events for since the last call (the transaction runner's, once `fn` is done). */
  takeWorkspaces(trx: Trx): string[];
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
      const workspaces = written.get(trx);
      if (workspaces) workspaces.add(workspaceId);
      else written.set(trx, new Set([workspaceId]));
      return id;
    },
    takeWorkspaces(trx) {
      const workspaces = written.get(trx);
      if (!workspaces) return [];
      written.delete(trx);
      return [...workspaces];
    },
    committed(opts) {
      const commit: Committed = { deliveriesDue: opts?.deliveriesDue ?? false, workspaces: opts?.workspaces };
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
    // workspaces gathered here are exactly the committed group's (a member that failed adds none).
    const workspaces = new Set<string>();
    const group = createGroupCommit(db, () => {
      const committed = [...workspaces];
      workspaces.clear();
      outbox.committed({ workspaces: committed });
    });
    const run = <T>(fn: (trx: Trx) => Promise<T>) =>
      group(async (trx) => {
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn(trx);
        } catch (err) {
          outbox.takeWorkspaces(trx); // rolled back to its savepoint: its events are gone
          throw err;
        }
        for (const a of outbox.takeWorkspaces(trx)) workspaces.add(a);
        return result;
      });
    return Object.assign(run, { insertsOnly: run });
  }
  // One of the two ways to run fn, then the outbox is told which workspaces the commit wrote events for.
  const committing =
    (execute: <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>) =>
    async <T>(fn: (trx: Trx) => Promise<T>) => {
      let workspaces: string[] = [];
      const result = await execute(async (trx) => {
        const value = await fn(trx);
        workspaces = outbox.takeWorkspaces(trx);
        return value;
      });
      outbox.committed({ workspaces });
      return result;
    };
  return Object.assign(
    committing((fn) => db.transaction().execute(fn)),
    { insertsOnly: committing((fn) => runInsertBatch(db, fn)) },
  );
}
