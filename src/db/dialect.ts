import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from './types.js';

/**
 * Small differences between SQLite and PostgreSQL that portable Kysely cannot hide. The larger ones
 * each have a module of their own: search in src/modules/search/, LISTEN/NOTIFY in src/db/postgres/outbox-listen.ts.
 */

/** Which database a Kysely instance (or transaction) talks to. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * A text column as its UTF-8 bytes, for stored JSON that goes into an answer without being parsed: select
 * `storedUtf8(db, column)`, then pass the value through `utf8Buffer`. SQLite casts it to a blob, handed over as
 * is. PostgreSQL reads the text itself: a bytea (convert_to) travels as hex, twice the bytes, which the server
 * encodes and the client decodes (4 % of GET by id's CPU in Node, and more of PostgreSQL's on the same cores).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function storedUtf8(db: Kysely<any>, column: string): RawBuilder<Buffer | string> {
  return dialectOf(db) === 'postgres' ? sql<string>`${sql.ref(column)}` : sql<Buffer>`cast(${sql.ref(column)} as blob)`;
}

/** What `storedUtf8` selected, as bytes. */
export const utf8Buffer = (value: Buffer | string): Buffer => (typeof value === 'string' ? Buffer.from(value, 'utf8') : value);

/**
 * Holds the selected rows until the transaction ends: SELECT ... FOR UPDATE on PostgreSQL. SQLite has no
 * row locks and needs none: every transaction there is BEGIN IMMEDIATE (src/db/sqlite/statement-cache.ts), which
 * holds the database's write lock from its first statement.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function lockedForUpdate<QB extends { forUpdate(): QB }>(exec: Kysely<any>, qb: QB): QB {
  return dialectOf(exec) === 'postgres' ? qb.forUpdate() : qb;
}

/**
 * The cheapest key to collect a table's matching rows by: SQLite's rowid (the FTS index is keyed
 * by it, so a match set needs no table lookup), PostgreSQL's primary key id.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function rowKey(db: Kysely<any>): 'rowid' | 'id' {
  return dialectOf(db) === 'postgres' ? 'id' : 'rowid';
}

/** Row lock clause for queue claims: SKIP LOCKED on PostgreSQL; SQLite serializes writers anyway. */
export function skipLockedSuffix(dialect: Dialect) {
  return dialect === 'postgres' ? sql`for update skip locked` : sql``;
}
