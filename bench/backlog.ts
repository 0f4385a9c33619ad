import path from 'node:path';

export interface Backlog {
  /** Records waiting for a search index when the count began (each index's queue counted). */
  pending: number;
  /** Seconds until none waited (or maxS). */
  caughtUpS: number;
}

/** Counts what waits now, then polls every 100 ms until nothing does (at most `maxS` seconds). */
export async function waitForBacklog(count: () => number | Promise<number>, maxS = 600): Promise<Backlog> {
  const started = performance.now();
  const pending = await count();
  while ((await count()) > 0 && performance.now() - started < maxS * 1000) await new Promise((r) => setTimeout(r, 100));
  return { pending, caughtUpS: (performance.now() - started) / 1000 };
}

/**
 * SQLite: the records queued for a search index when the POST part ended (the `q` FTS index, migration
 * 033, and the unified search, migration 038), and how long the indexers took to take them.
 */
export async function ftsBacklog(dataDir: string, maxS = 600): Promise<Backlog> {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'sheet-workspace.db'), { readonly: true, fileMustExist: true });
  try {
    const queued = db.prepare('select (select count(*) from sheets_search_queue) + (select count(*) from search_queue) as n');
    return await waitForBacklog(() => Number((queued.get() as { n: number }).n), maxS);
  } finally {
    db.close();
  }
}
