import { CompiledQuery, type Kysely, type KyselyPlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';
import type { Db, Trx } from './types.js';

/**
 * PostgreSQL: a transaction whose only statements are single-row INSERTs (a create and its event) sent
 * as one statement of data-modifying CTEs, `with b0 as (insert ...), b1 as (insert ...) select 1`. One
 * statement is atomic on its own, so BEGIN, each INSERT and COMMIT (four round trips for a sheet and its
 * event) become one, and the rows a trigger locks (sheet_counts, migration 021) are held for that
 * statement only, not across the round trips of a transaction (docs/performance.md, twelfth pass).
 * The data-modifying CTE is PostgreSQL's own SQL: SQLite has none, and needs none (its transactions
 * are in-process; src/db/group-commit.ts shares their COMMITs).
 */

interface Batch {
  /** The database the batch runs on; statements are compiled for it. */
  db: Db;
  queries: CompiledQuery[];
}

const batches = new WeakMap<Kysely<any>, Batch>();

/** The batch `exec` gathers INSERTs into, when it is a batch's executor (compiledInsert adds to it instead of running). */
export function insertBatchOf(exec: Kysely<any>): Batch | undefined {
  return batches.get(exec);
}

/** Any statement built on a batch's executor is a programming error: only compiledInsert's rows can be deferred safely. */
class OnlyCompiledInserts implements KyselyPlugin {
  transformQuery(): never {
    throw new Error('an insert batch runs only compiledInsert statements (use the transaction runner for anything else)');
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * Runs `fn` against an executor that gathers its compiledInsert rows, then writes them all in one
 * statement: every row or none. A failing INSERT (a constraint) rejects here, after `fn` returned.
 */
export async function runInsertBatch<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  const executor = db.withPlugin(new OnlyCompiledInserts());
  const batch: Batch = { db, queries: [] };
  batches.set(executor, batch);
  // A Kysely instance, not a Transaction: fn only hands it to compiledInsert, which never asks which.
  const value = await fn(executor as unknown as Trx);
  if (batch.queries.length > 0) await db.executeQuery(oneStatement(batch.queries));
  return value;
}

/** The INSERTs (one or more) as one statement, their `$n` placeholders renumbered in order (compiledInsert's SQL holds no other `$`). */
export function oneStatement(queries: readonly CompiledQuery[]): CompiledQuery {
  if (queries.length === 1) return queries[0];
  const parameters: unknown[] = [];
  const parts = queries.map((q, i) => {
    const offset = parameters.length;
    parameters.push(...q.parameters);
    return `b${i} as (${q.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`)})`;
  });
  return CompiledQuery.raw(`with ${parts.join(', ')} select 1`, parameters);
}
