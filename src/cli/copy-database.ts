import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../db/index.js';
import { deferSheetTokens } from '../modules/search/substring/pg-token-bulk-load.js';
import type { Database, Db } from '../db/types.js';

/**
 * SQLite (DATA_DIR) to an empty PostgreSQL database, row for row: ids, timestamps, versions, revisions,
 * key hashes, encrypted webhook secrets, queued deliveries and the outbox. This module owns the copy, so
 * the SQLite-only reading (rowid order, PRAGMA table_info) lives here and nowhere else.
 *
 * Tables are copied parents first, and webhooks before the outbox: PostgreSQL stores an event no
 * webhook subscribes to as dispatched (migration 034), so an undispatched one must find its webhooks there.
 * What PostgreSQL derives is not copied but rebuilt there: sheet_counts
 * by its triggers as rows arrive, the token index set-wise once the sheets are in (pg-token-bulk-load.ts);
 * SQLite's own search index and auth counter stay behind.
 */
export const COPIED_TABLES = [
  'users',
  'oauth_clients',
  'api_keys',
  'oauth_grants',
  'oauth_codes',
  'oauth_tokens',
  'sheets',
  'sheet_revisions',
  'sessions',
  'handovers',
  'knowledge',
  'todos',
  'idempotency_keys',
  'work_logs',
  'spark_runs',
  'user_sparks',
  'webhooks',
  'outbox',
  'exports',
  'console_sessions',
  'deliveries',
  'delivery_attempts',
  'workspaces',
  'workspace_members',
  'workspace_invitations',
  'sheet_shares',
  'session_distills',
  'distill_runs',
  'knowledge_suggestions',
] as const satisfies readonly (keyof Database)[];
type Table = (typeof COPIED_TABLES)[number];

/** Parameters per INSERT, under PostgreSQL's 65,535; a batch holds as many rows as fit, up to MAX_ROWS. */
const MAX_PARAMS = 60_000;
const MAX_ROWS = 2_000;
/**
 * INSERTs of one table in flight at once, each on its own pool connection: the next batch is read and
 * encoded while PostgreSQL writes the last. Tables still go one after the other (parents first).
 */
const IN_FLIGHT = 3;
/** Statements filling the token index side by side (the tokenizer is most of a copy's work). */
const TOKEN_PARALLEL = 4;

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
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Before anything is written (the target's migrations included): a database with a table of ours holding
 * rows, or with tables that are not ours, is refused and left as it was.
 */
async function refuseUnlessEmpty(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'");
    const names = rows.map((r) => r.table_name);
    const ours = new Set<string>(COPIED_TABLES);
    const foreign = names.filter((n) => !ours.has(n) && !OUR_DERIVED_TABLES.test(n));
    if (foreign.length) throw new CopyRefused(`the target database is not empty: it holds other tables (${foreign.slice(0, 5).join(', ')}); copy into a new, empty database`);
    for (const table of names.filter((n) => ours.has(n))) {
      const {
        rows: [row],
      } = await client.query<{ n: string }>(`select count(*) as n from "${table}"`);
      if (Number(row!.n) > 0) throw new CopyRefused(`the target database is not empty: ${table} has ${row!.n} row(s); copy into a new, empty database`);
    }
  } finally {
    await client.end();
  }
}
/** Tables our migrations make besides the copied ones: the migrator's own and what triggers keep. */
const OUR_DERIVED_TABLES = /^(kysely_migration|kysely_migration_lock|auth_generation|sheet_counts|sheet_tokens|sheet_token_vocabulary|sheet_token_vocab|search_docs|search_queue|search_vectors)$/;

export async function copySqliteToPostgres(opts: { dataDir: string; postgresUrl: string; onProgress?: (p: CopyProgress) => void }): Promise<CopyResult[]> {
  await refuseUnlessEmpty(opts.postgresUrl);
  // Both at this version's schema first: the source may have been written by an older release.
  const source = await openDatabase({ dataDir: opts.dataDir });
  await source.close();
  const target = await openDatabase({ dataDir: opts.dataDir, databaseUrl: opts.postgresUrl });
  const file = new SQLite(path.join(opts.dataDir, 'sheet-workspace.db'), { readonly: true, fileMustExist: true });
  let tokens: Awaited<ReturnType<typeof deferSheetTokens>> | undefined;
  let filling: Promise<void> | undefined;
  try {
    tokens = await deferSheetTokens(target.db);
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
      const rowsPerBatch = Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length));
      let copied = 0;
      let batch: Record<string, unknown>[] = [];
      const inFlight = new Set<Promise<void>>();
      let failed: unknown;
      const flush = async () => {
        if (batch.length === 0) return;
        const rows = batch;
        batch = [];
        const insert: Promise<void> = target.db
          .insertInto(table)
          .values(rows as never)
          .execute()
          .then(
            () => {
              copied += rows.length;
              opts.onProgress?.({ table, copied, total });
            },
            (err: unknown) => void (failed ??= err),
          )
          .finally(() => inFlight.delete(insert));
        inFlight.add(insert);
        if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
        if (failed) throw failed;
      };
      for (const row of file.prepare(`select ${list} from ${table} order by rowid`).iterate() as Iterable<Record<string, unknown>>) {
        batch.push(row);
        if (batch.length >= rowsPerBatch) await flush();
      }
      await flush();
      await Promise.all(inFlight);
      if (failed) throw failed;
      // The token index fills while the tables after sheets are copied: none of them depends on it.
      if (table === 'sheets') (filling = tokens.fill(TOKEN_PARALLEL)).catch(() => undefined); // awaited below
      results.push({ table, source: total, target: await count(target.db, table) });
    }
    file.prepare('commit').run();
    await filling;
    return results;
  } finally {
    await filling?.catch(() => undefined);
    await tokens?.restore();
    file.close();
    await target.close();
  }
}
