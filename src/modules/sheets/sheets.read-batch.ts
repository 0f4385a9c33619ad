import { sql } from 'kysely';
import { storedUtf8, utf8Buffer } from '../../db/dialect.js';
import { compiledOnce } from '../../db/sqlite/statement-cache.js';
import type { Db } from '../../db/types.js';
import type { StoredSheetRow } from './sheets.view.js';

/** Most sheets one statement reads: each count is its own compiled (and, on PostgreSQL, prepared) statement. */
const MAX_IDS = 16;

/**
 * The sheets by id as findStoredById reads them, with the auth generation (migration 031) in the same
 * statement. The generation row always exists, so ids that match nothing still return it (a row of nulls).
 */
const statements = Array.from({ length: MAX_IDS + 1 }, () =>
  compiledOnce((db: Db, ...ids: string[]) =>
    db
      .selectFrom('auth_generation')
      .leftJoin('sheets', (join) => join.on('sheets.id', 'in', ids))
      .select(sql<number>`cast(auth_generation.n as double precision)`.as('auth_generation'))
      .select(['sheets.id', 'sheets.workspace_id', 'sheets.title', storedUtf8(db, 'sheets.content').as('content'), 'sheets.folder', 'sheets.tags'])
      .select(['sheets.created_at', 'sheets.updated_at', 'sheets.trashed_at', 'sheets.version'])
      .where('auth_generation.id', '=', 1),
  ),
);

export interface ReadWithAuthGeneration {
  authGeneration: number | undefined;
  row: StoredSheetRow | undefined;
}

interface Waiting {
  id: string;
  done: (r: ReadWithAuthGeneration) => void;
  failed: (err: unknown) => void;
}

/**
 * GET by id's reads on PostgreSQL, gathered per event-loop turn: the requests that arrived in one turn are
 * answered by one statement (up to MAX_IDS ids each) instead of one each. Under load a turn holds a few
 * requests, and each statement costs the process a socket write that wakes a database backend (the largest
 * item of a GET's CPU profile, docs/performance.md nineteenth pass) and the database a statement of its own.
 * Every read is issued after the requests it answers arrived, so each sees every write acknowledged before
 * it, and the auth generation it carries may stand for each of them.
 */
export function createReadBatcher(db: Db) {
  let waiting: Waiting[] | undefined;

  function flush() {
    const all = waiting!;
    waiting = undefined;
    for (let i = 0; i < all.length; i += MAX_IDS) void read(all.slice(i, i + MAX_IDS));
  }

  async function read(group: Waiting[]) {
    const ids = [...new Set(group.map((w) => w.id))];
    try {
      const rows = await statements[ids.length](db, ...ids);
      const authGeneration = rows[0]?.auth_generation;
      const byId = new Map<string, StoredSheetRow>();
      for (const { auth_generation: _, ...row } of rows) {
        if (row.id === null) continue;
        row.content = utf8Buffer(row.content!);
        byId.set(row.id, row as StoredSheetRow);
      }
      for (const w of group) w.done({ authGeneration, row: byId.get(w.id) });
    } catch (err) {
      for (const w of group) w.failed(err);
    }
  }

  return (id: string): Promise<ReadWithAuthGeneration> =>
    new Promise((done, failed) => {
      if (!waiting) {
        waiting = [];
        setImmediate(flush);
      }
      waiting.push({ id, done, failed });
    });
}
