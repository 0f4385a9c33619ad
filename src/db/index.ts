import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, type Driver } from 'kysely';
import { databaseTrouble } from './db-errors.js';
import { FairSqliteDialect } from './sqlite/sqlite-dialect.js';
import type { Config } from '../config.js';
import type { Database, Db, Dialect } from './types.js';
import { migrationProvider } from './migrations/index.js';
import { withStatementCache } from './sqlite/statement-cache.js';
import { registerSqliteReaders, sqliteReaders } from './sqlite/sqlite-readers.js';
import { withNamedStatements } from './postgres/pg-named-statements.js';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  /** SQLite: the database file (its search index file beside it is prepared by the search module: prepareSqliteSearchIndex). */
  sqliteFile?: string;
}

/** Opens the database the config names (PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR) and migrates it. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<DatabaseHandle> {
  const handle = config.databaseUrl ? await openPostgres(config.databaseUrl) : openSqlite(config.dataDir);
  try {
    await migrate(handle.db);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/** Owner-only: a directory the service creates is 0700 (an existing one is the operator's to set). */
export function ensureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/**
 * The database and its -wal/-shm hold every account's data and key hashes: 0600. SQLite creates
 * -wal and -shm with the main file's mode, so creating that file 0600 first is enough for new ones;
 * files left by an older version are tightened too.
 */
export function restrictSqliteFiles(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

const MAIN_CONNECTION_CHECKPOINT_PAGES = 20_000;

function openSqlite(dataDir: string): DatabaseHandle {
  ensureDataDir(dataDir);
  const dbFile = path.join(dataDir, 'sheet-workspace.db');
  restrictSqliteFiles(dbFile);
  const file = new SQLite(dbFile);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  // Each member of a group commit (src/db/sqlite/group-commit.ts) runs under a SAVEPOINT, whose statement
  // journal SQLite keeps in memory only up to 64 KiB, then in a temporary file: a POST's original
  // pages (the sheet, its four indexes, the outbox and its three, the queue, the counts) pass that,
  // and the file cost ~30 µs a POST. Temporary tables of this connection's sorts stay in memory too;
  // the large ones (search ranking) run on the reader threads, which keep the default.
  file.pragma('temp_store = MEMORY');
  // A 4 MB page cache, not better-sqlite3's 16 MB: the file is far larger than either (~300 MB at 100,000
  // sheets) and the OS caches it; the B-tree's inner pages fit. At 100,000 sheets the server kept ~10 MB
  // less (255-258 against 264-267 MB after the get, post and mixed parts) at the same GET by id and POST rates.
  file.pragma('cache_size = -4000');
  // Checkpoints run on a worker thread (src/db/sqlite/sqlite-readers.ts); this connection checkpoints only if
  // they fall far behind (~80 MB of WAL). Done here, one in every ~250 sheet writes paid 20-900 ms.
  file.pragma(`wal_autocheckpoint = ${MAIN_CONNECTION_CHECKPOINT_PAGES}`);
  const dialect = new FairSqliteDialect({ database: withStatementCache(file) });
  const db = new Kysely<Database>({ dialect });
  dialect.attach(db);
  registerSqliteReaders(db, dbFile);
  return {
    db,
    dialect: 'sqlite',
    sqliteFile: dbFile,
    close: async () => {
      await sqliteReaders(db)?.close();
      await db.destroy();
    },
  };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  // Loaded only for PostgreSQL: a SQLite deployment starts without it.
  const { default: pg } = await import('pg');
  // No JIT: it compiles for plans whose estimated cost passes jit_above_cost, and the token index's
  // conditions are priced high on purpose (src/modules/search/substring/pg-token-index.ts, TOKEN_SET): a search of 7,000
  // matches spent 700 ms compiling what runs in 30. Short statements never repay it anyway.
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' });
  // A connection PostgreSQL drops (a restart, a failover, pg_terminate_backend) must never end the
  // process: node-postgres emits 'error' on the client, and an 'error' nobody listens to throws. The
  // pool listens only while a client is idle; this listener stays for the client's whole life, checked
  // out (in a transaction or between statements) too. The statement that used the connection fails
  // (503 unavailable, src/db/db-errors.ts); on its release the pool drops the broken client and the
  // next request gets a new connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new KeepErrorPostgresDialect({ pool: withNamedStatements(pool) }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/**
 * Kysely's PostgreSQL dialect, except that a ROLLBACK failing because the connection is gone does not
 * replace the error that ended the transaction (the client would see "not queryable" instead of
 * "terminating connection due to administrator command"). PostgreSQL rolls back a transaction whose
 * connection ends, and the pool drops such a client on release; any other ROLLBACK failure still throws.
 */
class KeepErrorPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      try {
        await rollback(connection);
      } catch (err) {
        if (databaseTrouble(err) !== 'lost') throw err;
      }
    };
    return driver;
  }
}

/** Brings `db` to this version's schema; returns the names of the migrations it ran. */
export async function migrate(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}
