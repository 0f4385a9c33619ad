import { CompiledQuery, type Kysely, type KyselyPlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';
import { nameStatement } from './pg-named-statements.js';
import type { Db, Trx } from '../types.js';

/**
 * PostgreSQL: a transaction whose only statements are single-row INSERTs (a create and its event) sent
 * as one statement of data-modifying CTEs, `with b0 as (insert ...), b1 as (insert ...) select 1`. One
 * statement is atomic on its own, so BEGIN, each INSERT and COMMIT (four round trips for a sheet and its
 * event) become one, and the rows a trigger locks (sheet_counts, migration 021) are held for that
 * statement only, not across the round trips of a transaction (docs/performance.md, twelfth pass).
 * The data-modifying CTE is PostgreSQL's own SQL: SQLite has none, and needs none (its transactions
 * are in-process; src/db/sqlite/group-commit.ts shares their COMMITs). Batches ready at once share one statement
 * (writeGrouped).
 */

interface Batch {
  /** The database the batch runs on; statements are compiled for it. */
  db: Db;
  queries: CompiledQuery[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
const batches = new WeakMap<Kysely<any>, Batch>();

/** The batch `exec` gathers INSERTs into, when it is a batch's executor (compiledInsert adds to it instead of running). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
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
  if (batch.queries.length > 0) await writeGrouped(db, batch.queries);
  return value;
}

/** Most batches written in one statement: bounds its size (a sheet's row may hold a megabyte) and its placeholders. */
const GROUP_MAX = 32;

interface Member {
  queries: CompiledQuery[];
  done: () => void;
  failed: (err: unknown) => void;
}
const waiting = new WeakMap<Db, Member[]>();

/**
 * Batches that are ready in the same event-loop turn are written in one statement, their rows of one compiled
 * INSERT (same table, same columns) as one multi-row INSERT: a statement-level trigger then runs once for all of
 * them (the token trigger looks each distinct token up once, not once per sheet: ~2.7 ms of PostgreSQL per sheet
 * in groups of 10 against ~6.5 alone, docs/performance.md seventeenth pass). One statement is all or nothing, so
 * when it fails each batch is written again alone: a failing row fails only its own batch.
 */
function writeGrouped(db: Db, queries: CompiledQuery[]): Promise<void> {
  return new Promise<void>((done, failed) => {
    let members = waiting.get(db);
    if (!members) {
      members = [];
      waiting.set(db, members);
      setImmediate(() => {
        waiting.delete(db);
        for (let i = 0; i < members!.length; i += GROUP_MAX) void writeMembers(db, members!.slice(i, i + GROUP_MAX));
      });
    }
    members.push({ queries, done, failed });
  });
}

async function writeMembers(db: Db, members: Member[]): Promise<void> {
  if (members.length > 1) {
    try {
      await db.executeQuery(groupStatement(members.flatMap((m) => m.queries)));
      for (const m of members) m.done();
      return;
    } catch {
      // Which batch failed is not known: each is written alone below, and only that one rejects.
    }
  }
  await Promise.all(members.map((m) => db.executeQuery(oneStatement(m.queries)).then(m.done, m.failed)));
}

/** `insert into ... values ($1, ..., $n)`, compiledInsert's one-row statement: its head and its number of values. */
const ONE_ROW = /^(insert into .+ values )\((\$\d+(?:, \$\d+)*)\)$/s;

/**
 * The texts built below, by the statement texts they came from: compiledInsert's texts are a few constant
 * strings, so a group's SQL is looked up rather than built again (regex, placeholder lists, renumbering:
 * ~5 % of the event loop's time a create on PostgreSQL). Bounded: cleared past MEMO_MAX entries.
 */
const MEMO_MAX = 4096;
/** Values by statement text, then by a number, under one bound over both levels (the inner maps cannot multiply it). */
function memo<V>(): (text: string, n: number, make: () => V) => V {
  const m = new Map<string, Map<number, V>>();
  let size = 0;
  return (text, n, make) => {
    let byN = m.get(text);
    let v = byN?.get(n);
    if (v === undefined) {
      if (size >= MEMO_MAX) {
        m.clear();
        size = 0;
        byN = undefined;
      }
      if (!byN) m.set(text, (byN = new Map()));
      byN.set(n, (v = make()));
      size++;
    }
    return v;
  };
}
/** The statement's head when it is compiledInsert's one-row form with $1..$n in order, else null (by text alone: n is 0). */
const headOf = memo<string | null>();
/** A head's multi-row statement, by head then number of rows. */
const multiRow = memo<string>();
/** A statement's text with its placeholders moved up by an offset, by text then offset. */
const shifted = memo<string>();

function oneRowHead(q: CompiledQuery): string | null {
  return headOf(q.sql, 0, () => {
    const m = ONE_ROW.exec(q.sql);
    const placeholders = m?.[2].split(', ');
    return m && placeholders!.every((p, i) => p === `$${i + 1}`) && placeholders!.length === q.parameters.length ? m[1] : null;
  });
}

/**
 * The INSERTs as one statement, rows of identical statements merged into one multi-row INSERT (in the order each
 * statement first appears, rows in their order). A statement not of compiledInsert's one-row form stays alone.
 */
export function groupStatement(queries: readonly CompiledQuery[]): CompiledQuery {
  const merged = new Map<string, CompiledQuery[]>();
  const alone: CompiledQuery[] = [];
  for (const q of queries) {
    const head = oneRowHead(q);
    if (head === null) {
      alone.push(q);
      continue;
    }
    const same = merged.get(head);
    if (same) same.push(q);
    else merged.set(head, [q]);
  }
  const statements = [...merged].map(([head, rows]) => {
    const width = rows[0].parameters.length;
    const n = rows.length;
    const sql = multiRow(head, n, () => `${head}${Array.from({ length: n }, (_, r) => `(${Array.from({ length: width }, (_v, i) => `$${r * width + i + 1}`).join(', ')})`).join(', ')}`);
    return CompiledQuery.raw(
      sql,
      rows.flatMap((q) => q.parameters),
    );
  });
  const statement = oneStatement([...statements, ...alone]);
  if (alone.length === 0) nameGroup(statement.sql);
  return statement;
}

/**
 * Group statements run as named prepared statements: PostgreSQL parsed and planned each again, ~11 µs
 * of a row's ~60 in a group of 16 sheets and their events (measured: 50-52 against 61-64 µs a row).
 * A text's row count varies, so each size is one more prepared statement per connection in PostgreSQL's
 * plan cache (its parsed form: 24 kB for 2 sheets and their events, 64 kB for 16, 128 kB for 32; its plan
 * about as much again): only the first NAMED_GROUPS_MAX texts are named, a few MB a connection at most.
 */
const NAMED_GROUPS_MAX = 32;
const namedGroups = new Set<string>();
function nameGroup(sql: string) {
  if (namedGroups.has(sql) || namedGroups.size >= NAMED_GROUPS_MAX) return;
  namedGroups.add(sql);
  nameStatement(sql);
}

/** The INSERTs (one or more) as one statement, their `$n` placeholders renumbered in order (compiledInsert's SQL holds no other `$`). */
export function oneStatement(queries: readonly CompiledQuery[]): CompiledQuery {
  if (queries.length === 1) return queries[0];
  const parameters: unknown[] = [];
  const parts = queries.map((q, i) => {
    const offset = parameters.length;
    for (const p of q.parameters) parameters.push(p);
    const moved = shifted(q.sql, offset, () => q.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`));
    return `b${i} as (${moved})`;
  });
  return CompiledQuery.raw(`with ${parts.join(', ')} select 1`, parameters);
}
