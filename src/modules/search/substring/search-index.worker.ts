import SQLite from 'better-sqlite3';
import { attachSearchIndex, SEARCH_SCHEMA } from '../../../db/sqlite/search-index-file.js';
import { indexQueuedRows, type IndexedBatch } from './sqlite-index-file.js';

/**
 * Piscina task (src/modules/search/substring/search-indexer.ts): one batch of the SQLite search index, on this thread's
 * own connection. It writes only the index file (sqlite-index-file.ts); the database is read, so the event
 * loop's writes never wait for it.
 */
let conn: SQLite.Database | undefined;

function connection(file: string): SQLite.Database {
  if (!conn) {
    conn = new SQLite(file, { fileMustExist: true });
    conn.pragma('busy_timeout = 5000');
    // The database's pages are read once a batch: SQLite's own default cache, not better-sqlite3's 16 MB.
    conn.pragma('cache_size = -2000');
    attachSearchIndex(conn, file);
    conn.pragma(`${SEARCH_SCHEMA}.synchronous = FULL`);
  }
  return conn;
}

export default function indexBatch({ file, limit, maxChars }: { file: string; limit: number; maxChars: number }): IndexedBatch {
  return indexQueuedRows(connection(file), limit, maxChars);
}
