import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { attachSearchIndex, SEARCH_SCHEMA } from '../../db/sqlite/search-index-file.js';
import { indexRecords, type QueuedRecord } from './search.index-batch.js';
import { sqliteSearch } from './search.sqlite.js';
import { indexQueuedRows, type IndexedBatch } from './substring/sqlite-index-file.js';
import { IDLE_COLLECT_MS, startIdleCollector } from '../../runtime/idle-gc.js';
import { withStatementCache } from '../../db/sqlite/statement-cache.js';

// A burst's batches leave their texts and words as garbage in this thread's heap: collected once it is idle.
const idle = startIdleCollector({ idleMs: IDLE_COLLECT_MS });

/**
 * Piscina task (src/modules/search/search-index-thread.ts): one batch of a SQLite search index on this
 * thread's own connection, which attaches the index file (src/db/sqlite/search-index-file.ts). It writes
 * only that file; the database is read, so the event loop's writes never wait for it. Two indexes live
 * there, each with its own queue and mark: the sheets' `q` trigram index (substring/sqlite-index-file.ts)
 * and the unified search (search.sqlite.ts, decision 0013). One thread runs both, one batch at a time,
 * so they never wait for each other's lock on the file.
 */
let conn: SQLite.Database | undefined;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw SQL over two schemas, not the app's typed tables
let kysely: Kysely<any> | undefined;

function connection(file: string): SQLite.Database {
  if (!conn) {
    conn = new SQLite(file, { fileMustExist: true });
    conn.pragma('busy_timeout = 5000');
    // The database's pages are read once a batch: SQLite's own default cache, not better-sqlite3's 16 MB.
    conn.pragma('cache_size = -2000');
    attachSearchIndex(conn, file);
    // The database drops queue rows on the strength of this file's commits.
    conn.pragma(`${SEARCH_SCHEMA}.synchronous = FULL`);
  }
  return conn;
}

export type IndexTask = { index: 'sheets-q' | 'unified'; file: string; limit: number; maxChars: number };

/** About how much text a queued record has (its largest columns), read by key: the batch's size is decided before any record is read whole. */
const TEXT_CHARS = sql`coalesce((select length(search_text) from sheets where id = q.record_id and q.kind = 'sheet'), 0)
  + coalesce((select length(coalesce(summary, '')) + length(coalesce(outcome, '')) from sessions where id = q.record_id and q.kind = 'session'), 0)
  + coalesce((select length(coalesce(content, '')) + length(coalesce(description, '')) + length(coalesce(error, '')) from knowledge where id = q.record_id and q.kind = 'knowledge'), 0)`;

export default async function indexBatch(task: IndexTask): Promise<IndexedBatch> {
  idle.touch();
  if (task.index === 'sheets-q') return indexQueuedRows(connection(task.file), task.limit, task.maxChars);
  kysely ??= new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(connection(task.file), { max: 64, deferredBegin: true }) }) });
  // Each statement prepared once (a batch runs the same few for every record; decision 0007). Kysely's BEGIN
  // stays deferred: the first write takes the index file's lock only, never the database's.
  return kysely.transaction().execute(async (trx) => {
    // A write first: it takes the index file's lock (another process may be indexing) before the mark is read.
    await sql`update search_index.state set unified_mark = unified_mark`.execute(trx);
    const mark = Number((await sql<{ mark: number }>`select unified_mark as mark from search_index.state`.execute(trx)).rows[0].mark);
    const rows = (
      await sql<QueuedRecord & { chars: number }>`select q.seq, q.kind, q.record_id, ${TEXT_CHARS} as chars
        from search_queue as q where q.seq > ${mark} order by q.seq limit ${task.limit}`.execute(trx)
    ).rows;
    if (rows.length === 0) return { indexed: 0, mark };
    // The batch's texts, their words and FTS5's pending rows until COMMIT are held here: a batch also
    // stops at maxChars of text (one record at least), so a queue of 1 MB sheets never outgrows the heap.
    let take = 1;
    for (let chars = rows[0].chars; take < rows.length && (chars += rows[take].chars) <= task.maxChars;) take++;
    const queued = rows.slice(0, take);
    await indexRecords(trx, sqliteSearch, queued);
    const last = Number(queued[queued.length - 1].seq);
    await sql`update search_index.state set unified_mark = ${last}`.execute(trx);
    return { indexed: queued.length, mark: last };
  });
}
