import type SQLite from 'better-sqlite3';
import { PostgresAdapter, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../types.js';
import { insertBatchOf } from '../postgres/insert-batch.js';
import { nameStatement } from '../postgres/pg-named-statements.js';
import { readNow, type SqliteFile } from './sqlite-dialect.js';

/**
 * Kysely's SQLite driver calls prepare() for every query it runs, and preparing costs more
 * than running a small query. This keeps the prepared statements by SQL text (least recently
 * used first out), so a hot route prepares each of its statements once. A statement that is
 * still being iterated (a streamed query) is never handed out twice: a fresh one is prepared.
 * `deferredBegin`: keep Kysely's BEGIN as it is (the search index thread, whose first write must take
 * only the attached index file's lock, never the database's).
 */
export function withStatementCache(file: SQLite.Database, { max = 1000, deferredBegin = false } = {}): SqliteFile {
  const cache = new Map<string, SQLite.Statement>();
  return {
    get inTransaction() {
      return file.inTransaction;
    },
    prepare(text: string) {
      // Kysely opens transactions with a deferred BEGIN. A deferred transaction that reads and then
      // writes can fail with SQLITE_BUSY (no wait) when another process wrote in between; an IMMEDIATE
      // one takes the write lock first and waits its turn (busy_timeout), so read-modify-write stays atomic.
      const sql = text === 'begin' && !deferredBegin ? 'begin immediate' : text;
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = file.prepare(sql);
      if (!hit) {
        cache.set(sql, stmt);
        if (cache.size > max) cache.delete(cache.keys().next().value as string);
      }
      return stmt;
    },
    close() {
      cache.clear();
      file.close();
    },
  };
}

/**
 * A query built and compiled once, then run with new parameter values. Kysely compiles every
 * query on every call (building the operation tree and the SQL text), which cost about a fifth
 * of the CPU of a GET by id. `build` receives one marker per argument and must pass each marker
 * as a plain value (where('id', '=', id)); the markers' positions in the compiled parameters are
 * remembered and filled from the arguments on each run. The SQL is compiled once per kind of
 * database (keyed by the executor's adapter class), so the same code serves SQLite and
 * PostgreSQL, even both in one process; a transaction runs it like its database. A read that SQLite
 * can run at once (readNow) skips the driver's queue.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function compiledOnce<A extends unknown[], R>(build: (db: Kysely<any>, ...args: A) => Compilable<R>) {
  const compile = compiler(build);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  return async (exec: Kysely<any>, ...args: A): Promise<R[]> => {
    if (insertBatchOf(exec)) throw new Error('an insert batch runs only compiledInsert statements');
    const compiled = compile(exec, ...args);
    return readNow(exec, compiled) ?? (await exec.executeQuery<R>(compiled)).rows;
  };
}

/** compiledOnce's compiled query for `exec`, without running it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
function compiler<A extends unknown[], R>(build: (db: Kysely<any>, ...args: A) => Compilable<R>) {
  const cache = new Map<unknown, { query: CompiledQuery<R>; slots: number[] }>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  return (exec: Kysely<any>, ...args: A): CompiledQuery<R> => {
    const kind = exec.getExecutor().adapter.constructor;
    let hit = cache.get(kind);
    if (!hit) {
      const markers = args.map((_, i) => `\u0000compiled-once-param-${i}\u0000`);
      const query = build(exec, ...(markers as A)).compile();
      const slots = query.parameters.map((p) => (typeof p === 'string' ? markers.indexOf(p) : -1));
      if (new Set(slots.filter((s) => s >= 0)).size !== args.length) throw new Error('compiledOnce: every argument must be passed as a parameter value');
      hit = { query, slots };
      cache.set(kind, hit);
      if (exec.getExecutor().adapter instanceof PostgresAdapter) nameStatement(query.sql);
    }
    const { query, slots } = hit;
    const parameters = query.parameters.map((p, i) => (slots[i] >= 0 ? args[slots[i]] : p));
    return { ...query, parameters };
  };
}

/**
 * An INSERT of one row into `table`, compiled once (see compiledOnce): building and compiling it
 * cost ~12 µs of each POST /v1/sheets. `columns` names every column of the table's row type, so a
 * column added to the type and not here is a type error rather than a value left out.
 */
export function compiledInsert<T extends keyof Database & string, const C extends readonly (keyof Database[T] & string)[]>(
  table: T,
  columns: C & ([Exclude<keyof Database[T], C[number]>] extends [never] ? unknown : { missing: Exclude<keyof Database[T], C[number]> }),
) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  const compile = compiler((db: Kysely<any>, ...values: unknown[]) => db.insertInto(table).values(Object.fromEntries(columns.map((c, i) => [c, values[i]]))));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  return async (exec: Kysely<any>, row: Database[T]): Promise<void> => {
    const values = columns.map((c) => row[c]);
    // In an insert batch (src/db/postgres/insert-batch.ts) the row is written with the batch's other rows, in one statement.
    const batch = insertBatchOf(exec);
    if (batch) batch.queries.push(compile(batch.db, ...values));
    else await exec.executeQuery(compile(exec, ...values));
  };
}
