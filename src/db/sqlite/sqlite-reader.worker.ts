import SQLite from 'better-sqlite3';
import { lowerThreadPriority } from '../../runtime/background-thread.js';
import { IDLE_COLLECT_MS, startIdleCollector } from '../../runtime/idle-gc.js';
import { attachSearchIndex } from './search-index-file.js';

// Nice 19: the two reader threads of a two-core machine (src/db/sqlite/sqlite-readers.ts) share both cores
// with the main thread; at nice 10 GET by id's p99 beside five searches was 2.1x its p99 alone.
lowerThreadPriority(19);
const idle = startIdleCollector({ idleMs: IDLE_COLLECT_MS });

/**
 * Piscina task (src/db/sqlite/sqlite-readers.ts): one read-only statement on this thread's own connection
 * to the database file. WAL lets it read while the main connection writes; each statement sees the
 * last commit made before it started.
 */
const connections = new Map<string, { db: SQLite.Database; statements: Map<string, SQLite.Statement> }>();

function connection(file: string) {
  let c = connections.get(file);
  if (!c) {
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // SQLite's own default (2 MB) rather than better-sqlite3's 16 MB: a search reads far more pages than
    // either holds (the OS page cache serves them), and the cache's pages stayed in this thread's malloc
    // arena after the thread ended (12.6 -> 6.7 MB per reader arena; RSS after the bench 217 -> 206 MB).
    db.pragma('cache_size = -2000');
    attachSearchIndex(db, file);
    c = { db, statements: new Map() };
    connections.set(file, c);
  }
  return c;
}

export default function read({ file, sql, parameters }: { file: string; sql: string; parameters: unknown[] }): unknown[] {
  idle.touch();
  const c = connection(file);
  let statement = c.statements.get(sql);
  if (!statement) {
    statement = c.db.prepare(sql);
    if (c.statements.size >= 200) c.statements.clear();
    c.statements.set(sql, statement);
  }
  return statement.all(...parameters);
}
