import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { createPgDatabase, dialects, startServer } from '../helpers.js';

/**
 * Issue 55: migration 038 indexes the records written before it. A database is migrated up to 036,
 * records are written into it as that version did, then the server starts (running 037 and 038): the
 * search finds them, once the background pass has indexed the queue the migration filled.
 */
for (const dialect of dialects()) {
  describe(`search backfill [${dialect}]`, () => {
    it('finds records written before migration 038', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-backfill-'));
      const pgDb = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const db = new Kysely<any>({
        dialect: pgDb ? new PostgresDialect({ pool: new pg.Pool({ connectionString: pgDb.url, max: 2 }) }) : new SqliteDialect({ database: new SQLite(path.join(dataDir, 'sheet-workspace.db')) }),
      });
      const at = '2025-01-01T00:00:00.000Z';
      try {
        const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo('036_webhook_maker');
        assert.equal(migrated.error, undefined);
        await db.insertInto('users').values({ id: 'usr_backfill', name: 'old', plan: 'pro', created_at: at }).execute();
        await db
          .insertInto('sessions')
          .values({
            id: 'ses_backfill',
            user_id: 'usr_backfill',
            title: 'Okapi exporter rewrite',
            summary: 'Rewrote the okapi exporter.',
            project: 'zoo',
            tags: '[]',
            files_changed: '[]',
            search_text: 'okapi',
            created_at: at,
            external_id: null,
            updated_at: null,
          })
          .execute();
        await db
          .insertInto('todos')
          .values({
            id: 'td_backfill',
            user_id: 'usr_backfill',
            content: 'Feed the okapi',
            status: 'pending',
            project: 'zoo',
            priority: 'medium',
            active_form: null,
            created_at: at,
            updated_at: at,
            version: 1,
            content_key: 'Feed the okapi',
          })
          .execute();
      } finally {
        await db.destroy();
      }
      const s = await startServer(dialect, { dataDir, databaseUrl: pgDb?.url });
      try {
        assert.ok((await sql<{ n: number }>`select count(*) as n from search_queue`.execute(s.c.db)).rows.length === 1);
        await s.c.search.indexer.drain();
        const found = await s.c.search.search({ userId: 'usr_backfill' }, { q: 'okapi' });
        assert.deepEqual(found.results.map((r) => r.id).sort(), ['ses_backfill', 'td_backfill']);
        assert.equal(found.total, 2);
        assert.equal(Number((await sql<{ n: number }>`select count(*) as n from search_queue`.execute(s.c.db)).rows[0].n), 0);
      } finally {
        await s.close();
        await pgDb?.drop();
      }
    });
  });
}
