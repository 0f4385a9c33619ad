import { sql } from 'kysely';
import { indexPendingTokens } from '../src/modules/search/substring/pg-token-indexer.js';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { attachSearchIndex } from '../src/db/sqlite/search-index-file.js';
import { dropIndexedFromQueue, indexQueuedRows, prepareSqliteSearchIndex } from '../src/modules/search/substring/sqlite-index-file.js';
import { openDatabase } from '../src/db/index.js';
import type { SheetsTable } from '../src/db/types.js';
import { newId } from '../src/ids.js';
import { sheetSearchText } from '../src/modules/sheets/sheets.view.js';
import { createSearchIndexer } from '../src/modules/search/search.indexer.js';
import { pgSearch } from '../src/modules/search/search.pg.js';
import { sqliteSearch } from '../src/modules/search/search.sqlite.js';
import { rng, sheetContent } from './content.js';
import { personalWorkspaceId } from '../src/lib/workspace-ids.js';

const BATCH = 100;
const TX_ROWS = 5000;

/**
 * Inserts `count` sheets for one user straight through Kysely, in big
 * transactions. search_text comes from the service's own sheetSearchText, and
 * any search index the migrations set up is kept by the same triggers/SQL as
 * in production (on SQLite the queue is then indexed by the indexer's own
 * function), so the seeded data is what the API would have written.
 */
export async function seedSheets(opts: { dataDir: string; databaseUrl?: string; userId: string; count: number; log: (s: string) => void }) {
  const handle = await openDatabase({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl });
  if (handle.sqliteFile) prepareSqliteSearchIndex(handle.sqliteFile);
  const r = rng(42);
  const start = Date.UTC(2024, 0, 1);
  const t0 = Date.now();
  const ids: string[] = [];
  try {
    for (let done = 0; done < opts.count;) {
      const n = Math.min(TX_ROWS, opts.count - done);
      await handle.db.transaction().execute(async (trx) => {
        for (let i = 0; i < n; i += BATCH) {
          const rows: SheetsTable[] = [];
          for (let j = i; j < Math.min(n, i + BATCH); j++) {
            const at = new Date(start + (done + j) * 60_000);
            const { title, content } = sheetContent(r);
            const id = newId('sht', at.getTime());
            if ((done + j) % 10 === 0) ids.push(id);
            rows.push({
              id,
              workspace_id: personalWorkspaceId(opts.userId),
              user_id: opts.userId,
              title,
              content: JSON.stringify(content),
              folder: r() < 0.3 ? 'Work' : null,
              tags: JSON.stringify(r() < 0.5 ? ['notes'] : []),
              search_text: sheetSearchText(title, content),
              created_at: at.toISOString(),
              updated_at: at.toISOString(),
              trashed_at: null,
              version: 1,
              last_changes: null,
              last_actor: null,
            });
          }
          await trx.insertInto('sheets').values(rows).execute();
        }
      });
      done += n;
      opts.log(`  seeded ${done}/${opts.count} sheets (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
    if (handle.dialect === 'postgres') {
      // Writes only mark their token rows pending (migration 032): tokenized here, two batches side by
      // side, as the server's indexer would in its first minutes, so the runs start with the index caught up.
      let indexed = 0;
      const worker = async () => {
        for (let n; (n = await indexPendingTokens(handle.db, 500)) > 0;) indexed += n;
      };
      await Promise.all([worker(), worker()]);
      opts.log(`  tokenized ${indexed} sheets for search (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      // VACUUM as autovacuum would soon after a bulk load: it marks the pages all-visible, so counting
      // an account's sheets reads only the list index (24 ms at 100,000 sheets, 173 ms by reading the table).
      await sql`vacuum analyze sheets`.execute(handle.db);
      await sql`vacuum analyze sheet_tokens`.execute(handle.db);
    } else {
      // Writes only queue their text for the FTS index (migration 018); the server's indexer would
      // otherwise spend the first ~30 s of every run indexing the seed, beside the first parts.
      const indexed = indexWholeQueue(path.join(opts.dataDir, 'sheet-workspace.db'));
      opts.log(`  indexed ${indexed} sheets for search (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
    // GET /v1/search's index (migration 038): the triggers queued every sheet; drained with the server's own indexer.
    const t1 = Date.now();
    const searchIndexer = createSearchIndexer(handle.db, handle.dialect === 'postgres' ? pgSearch : sqliteSearch, (err) => {
      throw err;
    });
    await searchIndexer.drain();
    await searchIndexer.close();
    if (handle.dialect === 'postgres') await sql`vacuum analyze search_docs`.execute(handle.db);
    opts.log(`  indexed ${opts.count} sheets for GET /v1/search (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
  } finally {
    await handle.close();
  }
  return { ids, seconds: (Date.now() - t0) / 1000 };
}

/** SQLite: indexes every queued sheet into the index file with the indexer thread's own function, then drops the queue. */
function indexWholeQueue(file: string): number {
  const conn = new SQLite(file, { fileMustExist: true });
  try {
    attachSearchIndex(conn, file);
    let indexed = 0;
    let mark = 0;
    for (let batch; (batch = indexQueuedRows(conn, TX_ROWS, 64 * 1024 * 1024)).indexed > 0; mark = batch.mark) indexed += batch.indexed;
    dropIndexedFromQueue(conn, mark);
    return indexed;
  } finally {
    conn.close();
  }
}
