import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from './types.js';

/**
 * Small differences between SQLite and PostgreSQL that portable Kysely cannot hide. The larger ones
 * each have a module of their own: search in src/db/search/, LISTEN/NOTIFY in src/db/outbox-listen.ts.
 */

/** Which database a Kysely instance (or transaction) talks to. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A text column's UTF-8 bytes (a Buffer in JavaScript): stored JSON goes into an answer without being decoded and encoded again. */
export function utf8Bytes(db: Kysely<any>, column: string): RawBuilder<Buffer> {
  return dialectOf(db) === 'postgres' ? sql<Buffer>`convert_to(${sql.ref(column)}, 'UTF8')` : sql<Buffer>`cast(${sql.ref(column)} as blob)`;
}

/**
 * Holds the selected rows until the transaction ends: SELECT ... FOR UPDATE on PostgreSQL. SQLite has no
 * row locks and needs none: every transaction there is BEGIN IMMEDIATE (src/db/statement-cache.ts), which
 * holds the database's write lock from its first statement.
 */
export function lockedForUpdate<QB extends { forUpdate(): QB }>(exec: Kysely<any>, qb: QB): QB {
  return dialectOf(exec) === 'postgres' ? qb.forUpdate() : qb;
}

/**
 * The cheapest key to collect a table's matching rows by: SQLite's rowid (the FTS index is keyed
 * by it, so a match set needs no table lookup), PostgreSQL's primary key id.
 */
export function rowKey(db: Kysely<any>): 'rowid' | 'id' {
  return dialectOf(db) === 'postgres' ? 'id' : 'rowid';
}

/** Row lock clause for queue claims: SKIP LOCKED on PostgreSQL; SQLite serializes writers anyway. */
export function skipLockedSuffix(dialect: Dialect) {
  return dialect === 'postgres' ? sql`for update skip locked` : sql``;
}
