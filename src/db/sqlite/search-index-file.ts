import type SQLite from 'better-sqlite3';

/**
 * SQLite's search index lives in a file of its own beside the database (the search module's
 * substring/sqlite-index-file.ts builds and fills it). This is the connection's side of it: its name, and
 * attaching it to the connections that read or write it. Here, in the driver's folder, because the
 * reader threads (sqlite-reader.worker.ts) attach it when they open their connection.
 */
export const SEARCH_SCHEMA = 'search_index';

const S = SEARCH_SCHEMA;

export const searchIndexFileOf = (databaseFile: string): string => `${databaseFile.replace(/\.db$/, '')}.search-index.db`;

/**
 * Attaches the index file of `databaseFile` to `conn` (created empty if missing, unless `conn` is
 * read-only): the reader threads, the indexer thread and the start-up check do. The event loop's
 * connection does not: with the file attached there, its write transactions spent a fifth of their
 * time in SQLite's busy handler (btreeBeginTrans) while the indexer thread committed, ~5,100 against
 * ~6,300 POST/s at 100,000 sheets.
 */
export function attachSearchIndex(conn: SQLite.Database, databaseFile: string): void {
  conn.prepare(`attach database ? as ${S}`).run(searchIndexFileOf(databaseFile));
  // SQLite's own default page cache (2 MB), not better-sqlite3's 16 MB: every reader thread attaches the
  // file, searches read many of its pages, and a cache's pages stay in its thread's malloc arena.
  conn.pragma(`${S}.cache_size = -2000`);
}
