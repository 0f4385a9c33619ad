import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: sheets' search_text and content compressed with lz4 instead of pglz, PostgreSQL's
 * default. A search's LIKE decompresses every text it tests, and at 100,000 sheets of 2 KB that was
 * most of its time: counting `migration` took 430 ms over pglz texts and 205 ms over lz4 ones (same
 * rows, the texts ~4% larger). Values written before this keep pglz until they are written again.
 * A server built without lz4 refuses the setting; the savepoint keeps the migration going without it.
 * SQLite: nothing (it does not compress).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`savepoint lz4_setup`.execute(db);
  try {
    await sql`alter table sheets alter column search_text set compression lz4, alter column content set compression lz4`.execute(db);
    await sql`release savepoint lz4_setup`.execute(db);
  } catch {
    await sql`rollback to savepoint lz4_setup`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
