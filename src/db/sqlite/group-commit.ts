import { sql } from 'kysely';
import { nextTurn } from '../../lib/next-turn.js';
import type { Db, Trx } from '../types.js';

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
interface Waiting {
  fn: (trx: Trx) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  outcome?: Outcome;
}

/** Most transactions one COMMIT carries; every one of them answers only after that COMMIT. */
const MAX_GROUP = 32;

/**
 * Group commit for SQLite. Its one connection runs transactions one at a time, and at 50
 * connections posting sheets the COMMIT was a third of each POST's time on the event loop
 * (~0.27 ms: a WAL commit writes every page the transaction touched, and consecutive inserts
 * touch the same last pages of each table and index). Transactions that arrive while one runs
 * wait, then run together in one transaction, each under its own SAVEPOINT: a transaction that
 * throws rolls back only its own writes and rejects only its own caller. Each caller's promise
 * settles after the group's COMMIT, so an answer never reports a write that is not on disk yet.
 * They run in arrival order on one connection, so the result is the same as running them one by
 * one. If the group's transaction itself fails (its COMMIT, or an error after which SQLite rolls
 * the whole transaction back), none of it was kept and each runs again on its own.
 */
export function createGroupCommit(db: Db, onCommitted: () => void): <T>(fn: (trx: Trx) => Promise<T>) => Promise<T> {
  const waiting: Waiting[] = [];
  let draining = false;
  let running: Promise<void> | undefined;
  let held: Promise<unknown> | undefined;
  holders.set(db, async (fn) => {
    while (held) await held.catch(() => {});
    const holding = (async () => {
      await running;
      return fn();
    })();
    held = holding;
    try {
      return await holding;
    } finally {
      held = undefined;
    }
  });

  // A group starts on the next turn of the event loop, not at once: requests whose bodies arrived in
  // the same turn are still on their way here (their reads wait for the connection too), and started
  // at once every group held one transaction (measured: 5,000 POSTs from 50 clients, 5,000 groups).
  async function drain() {
    draining = true;
    try {
      while ((await nextTurn(), waiting.length > 0)) {
        while (held) await held.catch(() => {});
        running = runGroup();
        await running;
        running = undefined;
      }
    } finally {
      draining = false;
    }
  }

  async function runGroup() {
    const group: Waiting[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        while (group.length < MAX_GROUP && waiting.length > 0) {
          const next = waiting.shift()!;
          group.push(next);
          next.outcome = await inSavepoint(trx, next.fn);
        }
      });
    } catch (error) {
      // No BEGIN (the write lock stayed taken past busy_timeout): the waiting ones fail as each would have alone.
      if (group.length === 0) for (const t of waiting.splice(0)) t.reject(error);
      for (const t of group) t.outcome = await db.transaction().execute(t.fn).then(succeeded, failed);
    }
    // As before group commit: a listener that throws fails the callers, though their writes are committed.
    let notified: Outcome | undefined;
    try {
      onCommitted();
    } catch (error) {
      notified = failed(error);
    }
    for (const t of group) {
      const outcome = notified ?? t.outcome!;
      if (outcome.ok) t.resolve(outcome.value);
      else t.reject(outcome.error);
    }
  }

  return <T>(fn: (trx: Trx) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!draining) void drain();
    });
}

const holders = new WeakMap<Db, <T>(fn: () => Promise<T>) => Promise<T>>();

/**
 * Runs `fn` with the group commits of `db` held: it starts once the group in progress has committed,
 * and no group starts until it ends (the waiting transactions then go on in order). Without group
 * commit on `db` (PostgreSQL), `fn` just runs.
 */
export function withWritesHeld<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const hold = holders.get(db);
  return hold ? hold(fn) : fn();
}

/**
 * A transaction of its own on `db`, not joined to a group (every transaction outside the group
 * commit), that still waits while a checkpoint holds the writes: one committed during the
 * checkpoint's held pass leaves pages behind, the WAL is not started over, and under the webhook
 * worker's steady writes it grew to the main connection's checkpoint limit again
 * (src/db/sqlite/sqlite-readers.ts). It costs no concurrency: the one connection runs one transaction at a
 * time anyway.
 */
export function transactionAlone<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return withWritesHeld(db, () => db.transaction().execute(fn));
}

const succeeded = (value: unknown): Outcome => ({ ok: true, value });
const failed = (error: unknown): Outcome => ({ ok: false, error });

async function inSavepoint(trx: Trx, fn: (trx: Trx) => Promise<unknown>): Promise<Outcome> {
  await sql`savepoint group_member`.execute(trx);
  try {
    const value = await fn(trx);
    await sql`release group_member`.execute(trx);
    return succeeded(value);
  } catch (error) {
    // If this throws, the transaction is gone (SQLite rolled it back): the whole group runs again.
    await sql`rollback to group_member`.execute(trx);
    await sql`release group_member`.execute(trx);
    return failed(error);
  }
}
