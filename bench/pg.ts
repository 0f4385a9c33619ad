import pg from 'pg';
import { waitForBacklog, type Backlog } from './backlog.js';

/** A fresh database on the server that `url` names, dropped after the run; `template` copies one. */
export async function freshPostgres(url: string | undefined, template?: string) {
  if (!url) throw new Error('--pg needs DATABASE_URL or TEST_POSTGRES_URL');
  const name = `sw_bench_${Date.now()}${template ? '_floor' : ''}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // A copy needs its template without sessions: the seeding and CLI connections may take a moment to go.
    for (let tries = 0; ; tries++) {
      try {
        await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
        break;
      } catch (err) {
        if (!template || tries >= 50 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * The server's search backlog on PostgreSQL (sheets not tokenized yet, migration 032, and records queued
 * for the unified search, migration 038):
 * how many wait now, and the seconds until none does (polled every 100 ms, at most `maxS`); then a VACUUM.
 */
export async function tokenBacklog(url: string, maxS = 600): Promise<Backlog> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const backlog = await waitForBacklog(async () => Number((await client.query('select (select count(*) from sheet_tokens where pending) + (select count(*) from search_queue) as n')).rows[0].n), maxS);
    // What autovacuum would do next (the burst left dead rows): done now, so it does not run beside the floor's part.
    await client.query('vacuum');
    return backlog;
  } finally {
    await client.end();
  }
}
