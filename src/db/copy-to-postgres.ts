import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from './index.js';
import type { Database, Db } from './types.js';

/**
 * SQLite (DATA_DIR) to an empty PostgreSQL database, row for row: ids, timestamps, versions, revisions,
 * key hashes, encrypted webhook secrets, queued deliveries and the outbox. This module owns the copy, so
 * the SQLite-only reading (rowid order, PRAGMA table_info) lives here and nowhere else.
 *
 * Tables are copied parents first. What triggers derive is not copied but rebuilt by them as rows arrive:
 * sheet_counts and the token index on PostgreSQL; SQLite's own search index and auth counter stay behind.
 */
export const COPIED_TABLES = [
  'users', 'oauth_clients', 'api_keys', 'oauth_grants', 'oauth_codes', 'oauth_tokens',
  'sheets', 'sheet_revisions', 'sessions', 'handovers', 'knowledge', 'todos', 'idempotency_keys',
  'work_logs', 'spark_runs', 'user_sparks', 'outbox', 'exports', 'console_sessions',
  'webhooks', 'deliveries', 'delivery_attempts',
] as const satisfies readonly (keyof Database)[];
type Table = (typeof COPIED_TABLES)[number];

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;

export interface CopyProgress {
  table: Table;
  copied: number;
  total: number;
}
export interface CopyResult {
  table: Table;
  source: number;
  target: number;
}

export class CopyRefused extends Error {}

async function targetColumns(target: Db, table: Table): Promise<Set<string>> {
  const rows = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(target);
  return new Set(rows.rows.map((r) => r.column_name));
}

async function count(db: Db, table: Table): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function copySqliteToPostgres(opts: { dataDir: string; postgresUrl: string; onProgress?: (p: CopyProgress) => void }): Promise<CopyResult[]> {
  // Both at this version's schema first: the source may have been written by an older release.
  const source = await openDatabase({ dataDir: opts.dataDir });
  await source.close();
  const target = await openDatabase({ dataDir: opts.dataDir, databaseUrl: opts.postgresUrl });
  const file = new SQLite(path.join(opts.dataDir, 'sheet-workspace.db'), { readonly: true, fileMustExist: true });
  try {
    for (const table of COPIED_TABLES) {
      const n = await count(target.db, table);
      if (n > 0) throw new CopyRefused(`the target database is not empty: ${table} has ${n} row(s); copy into a new, empty database`);
    }
    // One read transaction: every table is copied as of the same moment, even while a server writes.
    file.prepare('begin').run();
    const results: CopyResult[] = [];
    for (const table of COPIED_TABLES) {
      const columns = (file.prepare(`pragma table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
      const known = await targetColumns(target.db, table);
      const missing = columns.filter((c) => !known.has(c));
      if (missing.length) throw new CopyRefused(`PostgreSQL's ${table} has no column ${missing.join(', ')}; both must be at the same version`);
      const total = (file.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      const list = columns.map((c) => `"${c}"`).join(', ');
      let copied = 0;
      let batch: Record<string, unknown>[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await target.db.insertInto(table).values(batch as never).execute();
        copied += batch.length;
        batch = [];
        opts.onProgress?.({ table, copied, total });
      };
      for (const row of file.prepare(`select ${list} from ${table} order by rowid`).iterate() as Iterable<Record<string, unknown>>) {
        batch.push(row);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      results.push({ table, source: total, target: await count(target.db, table) });
    }
    file.prepare('commit').run();
    return results;
  } finally {
    file.close();
    await target.close();
  }
}
