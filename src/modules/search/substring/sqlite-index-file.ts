import type SQLite from 'better-sqlite3';
import SQLiteDatabase from 'better-sqlite3';
import { restrictSqliteFiles } from '../../../db/index.js';
import { attachSearchIndex, SEARCH_SCHEMA, searchIndexFileOf } from '../../../db/sqlite/search-index-file.js';
import { SQLITE_INDEX_TABLES } from '../search.sqlite.js';

/**
 * SQLite: the search indexes live in a file of its own beside the database: the sheets' `q` trigram
 * index (below) and, since migration 043, the unified search's tables (search.sqlite.ts,
 * SQLITE_INDEX_TABLES), each with its own queue in the database and its own mark here. Attached as
 * `search_index` to the connections that read or write it (not the event loop's: attachSearchIndex). It holds only what can be rebuilt from the database: the
 * trigram index of each sheet's search_text, its vocabulary, and how far through the database's
 * queue (sheets_search_queue, migration 033) it got. So its schema is not migrated: a file of
 * another version, or built from another database, is rebuilt (every sheet queued again).
 *
 * Why a second file: a SQLite file has one write lock. With the index in the database file, its
 * indexing (~40 µs a row, most of it in the COMMIT that writes the trigrams) ran on the event loop
 * or, on a thread, made every write wait; here a worker thread writes it (search-index.worker.ts)
 * while the event loop goes on writing the database. Its commits are synced (synchronous=FULL, on
 * that thread): the database drops queue rows on the strength of them. If the database itself loses
 * its last commits (a power cut: it syncs at checkpoints), its queue's high-water mark falls below
 * the index's and the index is rebuilt.
 *
 * Reads stay exact at every moment. A row leaves the queue only after its index entry committed,
 * and searches take a queued row's text from the database (sqlite-match.ts), never from the index.
 * A statement reads the database before the index file (SQLite opens its read transactions in
 * schema order, main first), so a row a search no longer sees queued is in the index it reads.
 */

/** Bump to rebuild every index file at its next start (a change to the tables below). 2: the unified search's tables (migration 043). */
const FILE_VERSION = 2;

const S = SEARCH_SCHEMA;

/**
 * At start, after the migrations (the app's wiring calls it right after openDatabase): the index file of
 * `databaseFile` made owner-only and one that matches this database (prepareSearchIndex), on a connection of
 * its own, since the event loop's never attaches the index file (see attachSearchIndex).
 */
export function prepareSqliteSearchIndex(databaseFile: string): void {
  restrictSqliteFiles(searchIndexFileOf(databaseFile));
  const preparing = new SQLiteDatabase(databaseFile);
  try {
    preparing.pragma('busy_timeout = 5000');
    attachSearchIndex(preparing, databaseFile);
    prepareSearchIndex(preparing);
  } finally {
    preparing.close();
  }
}

interface IndexState {
  origin: string;
  mark: number;
  /** How far through the unified search's queue (search_queue, migration 038) the file got. */
  unified_mark: number;
}

/**
 * On a connection with the index file attached (prepareSqliteSearchIndex): makes it one that
 * matches this database, and drops the queue's rows it already holds. A file that does not match is
 * started over: every sheet queued, then the file emptied with its mark before them, in that order,
 * so that a crash between the two leaves a file that still does not match.
 */
export function prepareSearchIndex(conn: SQLite.Database): void {
  conn.pragma(`${S}.journal_mode = WAL`);
  const origin = conn.prepare('select id from search_index_origin').pluck().get() as string;
  const seq = queueHighWater(conn, 'sheets_search_queue');
  const unifiedSeq = queueHighWater(conn, 'search_queue');
  const state = readState(conn);
  // mark > seq: the database went back in time (a backup restored) while the index did not.
  if (state && state.origin === origin && state.mark <= seq && state.unified_mark <= unifiedSeq) {
    dropIndexedFromQueue(conn, state.mark);
    dropUnifiedFromQueue(conn, state.unified_mark);
    return;
  }
  conn.transaction(() => {
    conn.prepare('delete from sheets_search_queue').run();
    conn.prepare('insert into sheets_search_queue (row_id) select rowid from sheets order by rowid').run();
    conn.prepare('delete from search_queue').run();
    for (const requeue of REQUEUE_UNIFIED) conn.prepare(requeue).run();
  })();
  conn.transaction(() => {
    for (const table of ['sheets_fts_terms', 'sheets_fts', 'search_fts', 'search_docs', 'state']) conn.exec(`drop table if exists ${S}.${table}`);
    conn.exec(`create virtual table ${S}.sheets_fts using fts5(text, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`);
    conn.exec(`create virtual table ${S}.sheets_fts_terms using fts5vocab(sheets_fts, 'row')`);
    for (const table of SQLITE_INDEX_TABLES(S)) conn.exec(table);
    conn.exec(`create table ${S}.state (origin text not null, mark integer not null, unified_mark integer not null)`);
    conn.prepare(`insert into ${S}.state (origin, mark, unified_mark) values (?, ?, ?)`).run(origin, seq, unifiedSeq);
    conn.pragma(`${S}.user_version = ${FILE_VERSION}`);
  })();
}

/** Every record the unified search indexes, queued again (as migrations 038 and 041 did). */
const REQUEUE_UNIFIED = [
  `insert into search_queue (kind, record_id) select 'sheet', id from sheets where trashed_at is null`,
  `insert into search_queue (kind, record_id) select 'session', id from sessions`,
  `insert into search_queue (kind, record_id) select 'knowledge', id from knowledge`,
  `insert into search_queue (kind, record_id) select 'todo', id from todos`,
];

/** Drops the unified search's queue rows up to `mark`: the index file holds them as they are now. */
export function dropUnifiedFromQueue(conn: SQLite.Database, mark: number): void {
  conn.prepare('delete from search_queue where seq <= ?').run(mark);
}

function readState(conn: SQLite.Database): IndexState | undefined {
  if (conn.pragma(`${S}.user_version`, { simple: true }) !== FILE_VERSION) return undefined;
  return conn.prepare(`select origin, mark, unified_mark from ${S}.state`).get() as IndexState | undefined;
}

/** The last seq `queue` handed out (0 before any). */
function queueHighWater(conn: SQLite.Database, queue: string): number {
  return Number(conn.prepare(`select seq from sqlite_sequence where name = ?`).pluck().get(queue) ?? 0);
}

export interface IndexedBatch {
  /** Queue rows taken (sheets indexed, or removed from the index when gone). */
  indexed: number;
  /** The index file's mark after the batch: the queue's rows up to it may be dropped. */
  mark: number;
}

/**
 * Indexes the queue's rows after the index file's mark, up to `limit` of them or `maxChars` of text
 * (one row at least), in one transaction of the index file, and moves its mark past them. The
 * database is only read, from one snapshot; a row changed after it is queued again with a later seq.
 */
export function indexQueuedRows(conn: SQLite.Database, limit: number, maxChars: number): IndexedBatch {
  return conn.transaction((): IndexedBatch => {
    // A write first: it takes the index file's lock (another process may be indexing) before the
    // mark is read. BEGIN IMMEDIATE would also take the database file's write lock.
    conn.prepare(`update ${S}.state set mark = mark`).run();
    const { mark } = conn.prepare(`select mark from ${S}.state`).get() as IndexState;
    const rows = conn
      .prepare(`select q.seq, coalesce(length(t.search_text), 0) as chars from sheets_search_queue as q left join sheets as t on t.rowid = q.row_id where q.seq > ? order by q.seq limit ?`)
      .all(mark, limit) as { seq: number; chars: number }[];
    if (rows.length === 0) return { indexed: 0, mark };
    // FTS5 holds a transaction's trigrams in memory until COMMIT: 32 queued 1 MB texts took the RSS
    // past 700 MB. So a batch also stops at `maxChars` of text.
    let take = 1;
    for (let chars = rows[0].chars; take < rows.length && (chars += rows[take].chars) <= maxChars;) take++;
    const last = rows[take - 1].seq;
    conn.prepare(`delete from ${S}.sheets_fts where rowid in (select row_id from sheets_search_queue where seq > ? and seq <= ?)`).run(mark, last);
    // CROSS JOIN keeps the queue as the outer loop (a plain join walked the table's rowids).
    conn
      .prepare(`insert into ${S}.sheets_fts (rowid, text) select t.rowid, t.search_text || char(3, 3) from sheets_search_queue as q cross join sheets as t on t.rowid = q.row_id where q.seq > ? and q.seq <= ?`)
      .run(mark, last);
    conn.prepare(`update ${S}.state set mark = ?`).run(last);
    return { indexed: take, mark: last };
  })();
}

/** Drops the queue's rows up to `mark`: the index file holds them as they are now. */
export function dropIndexedFromQueue(conn: SQLite.Database, mark: number): void {
  conn.prepare('delete from sheets_search_queue where seq <= ?').run(mark);
}
