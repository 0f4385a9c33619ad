import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { createPgDatabase, dialects } from '../helpers.js';

/**
 * Migration 042 on a database written by the layout before it (user_id = owner key: the account for a
 * personal record, the workspace for a team's), with personal and team records side by side: every
 * record gets its workspace, user_id becomes the account that made it (the recorded author where there
 * was one, else the workspace's creator), and what triggers keep (sheet counts, PostgreSQL's tokens,
 * both search queues) follows.
 */
const AT = '2026-11-01T00:00:00.000Z';
const RECORD_TABLES = ['sheets', 'sessions', 'handovers', 'knowledge', 'todos', 'work_logs', 'webhooks', 'outbox', 'sheet_counts'];

async function openAt041(dialect: 'sqlite' | 'postgres') {
  if (dialect === 'postgres') {
    const pgDb = await createPgDatabase();
    const pool = new pg.Pool({ connectionString: pgDb.url, max: 2 });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { db, close: async () => (await db.destroy(), await pgDb.drop()) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-m042-'));
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'db.sqlite')) }) });
  return { db, close: async () => (await db.destroy(), fs.rmSync(dir, { recursive: true, force: true })) };
}

async function seedOldLayout(db: Kysely<any>) {
  for (const [id, name] of [
    ['usr_alice', 'alice'],
    ['usr_bob', 'bob'],
  ]) {
    await db.insertInto('users').values({ id, name, plan: 'pro', created_at: AT }).execute();
    const wsp = `wsp_${id.slice(4)}`;
    await db.insertInto('workspaces').values({ id: wsp, name: 'Personal', personal: 1, created_by: id, created_at: AT, updated_at: AT }).execute();
    await db.insertInto('workspace_members').values({ workspace_id: wsp, user_id: id, role: 'owner', created_at: AT }).execute();
  }
  await db.insertInto('workspaces').values({ id: 'wsp_team', name: 'Team', personal: 0, created_by: 'usr_alice', created_at: AT, updated_at: AT }).execute();
  await db
    .insertInto('workspace_members')
    .values([
      { workspace_id: 'wsp_team', user_id: 'usr_alice', role: 'owner', created_at: AT },
      { workspace_id: 'wsp_team', user_id: 'usr_bob', role: 'editor', created_at: AT },
    ])
    .execute();
  const sheet = (id: string, owner: string, trashed = false) => ({
    id,
    user_id: owner,
    title: id,
    content: '{}',
    tags: '[]',
    search_text: `${id} 東京都庁の議事録`,
    created_at: AT,
    updated_at: AT,
    trashed_at: trashed ? AT : null,
  });
  await db
    .insertInto('sheets')
    .values([sheet('sht_a1', 'usr_alice'), sheet('sht_a2', 'usr_alice', true), sheet('sht_t1', 'wsp_team')])
    .execute();
  const session = (id: string, owner: string, author: string | null) => ({ id, user_id: owner, title: id, summary: 's', tags: '[]', files_changed: '[]', search_text: id, created_at: AT, author_id: author });
  await db
    .insertInto('sessions')
    .values([session('ses_a', 'usr_alice', 'usr_alice'), session('ses_t_bob', 'wsp_team', 'usr_bob'), session('ses_t_old', 'wsp_team', null)])
    .execute();
  await db.insertInto('handovers').values({ handover_id: 'sht_t1', user_id: 'wsp_team', session_id: 'ses_t_bob', project: null, created_at: AT, author_id: 'usr_bob' }).execute();
  const entry = (id: string, owner: string) => ({ id, user_id: owner, type: 'solution', title: id, content: 'c', tags: '[]', search_text: id, created_at: AT, updated_at: AT });
  await db
    .insertInto('knowledge')
    .values([entry('sol_a', 'usr_alice'), entry('sol_t', 'wsp_team')])
    .execute();
  await db.insertInto('todos').values({ id: 'td_t', user_id: 'wsp_team', content: 'x', status: 'pending', project: 'p', priority: 'low', created_at: AT, updated_at: AT, changed_by: 'usr_bob' }).execute();
  await db.insertInto('work_logs').values({ id: 'wl_b', user_id: 'usr_bob', hours: 1, date: '2026-11-01', created_at: AT }).execute();
  const hook = (id: string, owner: string, maker: string | null) => ({ id, user_id: owner, url: 'https://x.invalid/', events: '["*"]', secret_enc: 'enc', status: 'enabled', created_at: AT, created_by: maker });
  await db
    .insertInto('webhooks')
    .values([hook('wh_a', 'usr_alice', 'usr_alice'), hook('wh_t', 'wsp_team', 'usr_bob'), hook('wh_t_old', 'wsp_team', null)])
    .execute();
  await db.insertInto('outbox').values({ id: 'evt_a', user_id: 'usr_alice', event: 'sheet.created', data: '{}', created_at: AT, dispatched_at: AT }).execute();
}

for (const dialect of dialects()) {
  describe(`migration 042: records name their workspace and their maker [${dialect}]`, () => {
    it('maps owner keys to workspaces, fills user_id with the maker, and keeps what triggers maintain', async () => {
      const { db, close } = await openAt041(dialect);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('041_search_scope_column')).error, undefined);
        await seedOldLayout(db);
        const latest = await migrator.migrateToLatest();
        assert.equal(latest.error, undefined, String(latest.error));

        const pairs = async (table: string, key = 'id') =>
          Object.fromEntries((await db.selectFrom(table).select([key, 'workspace_id', 'user_id']).execute()).map((r: any) => [r[key], [r.workspace_id, r.user_id]]));
        assert.deepEqual(await pairs('sheets'), {
          sht_a1: ['wsp_alice', 'usr_alice'],
          sht_a2: ['wsp_alice', 'usr_alice'],
          sht_t1: ['wsp_team', 'usr_alice'],
        });
        assert.deepEqual(await pairs('sessions'), {
          ses_a: ['wsp_alice', 'usr_alice'],
          ses_t_bob: ['wsp_team', 'usr_bob'],
          ses_t_old: ['wsp_team', 'usr_alice'],
        });
        assert.deepEqual(await pairs('handovers', 'handover_id'), { sht_t1: ['wsp_team', 'usr_bob'] });
        assert.deepEqual(await pairs('knowledge'), { sol_a: ['wsp_alice', 'usr_alice'], sol_t: ['wsp_team', 'usr_alice'] });
        assert.deepEqual(await pairs('todos'), { td_t: ['wsp_team', 'usr_alice'] });
        assert.deepEqual(await pairs('work_logs'), { wl_b: ['wsp_bob', 'usr_bob'] });
        assert.deepEqual(await pairs('webhooks'), { wh_a: ['wsp_alice', 'usr_alice'], wh_t: ['wsp_team', 'usr_bob'], wh_t_old: ['wsp_team', 'usr_alice'] });
        assert.deepEqual(
          (await db.selectFrom('outbox').select(['id', 'workspace_id']).execute()).map((r: any) => [r.id, r.workspace_id]),
          [['evt_a', 'wsp_alice']],
        );
        for (const table of RECORD_TABLES) {
          const stray = await db.selectFrom(table).select('workspace_id').where('workspace_id', 'like', 'usr%').execute();
          assert.deepEqual(stray, [], `${table}: every row is in a workspace`);
        }
        for (const table of RECORD_TABLES.filter((t) => !['outbox', 'sheet_counts'].includes(t))) {
          const stray = await db.selectFrom(table).select('user_id').where('user_id', 'like', 'wsp%').execute();
          assert.deepEqual(stray, [], `${table}: no workspace id in user_id`);
        }

        const counts = async () =>
          (
            await sql<{
              workspace_id: string;
              trashed: number;
              n: string;
            }>`select workspace_id, trashed, cast(sum(n) as text) as n from sheet_counts group by workspace_id, trashed having sum(n) <> 0 order by 1, 2`.execute(db)
          ).rows.map((r) => [r.workspace_id, Number(r.trashed), Number(r.n)]);
        assert.deepEqual(await counts(), [
          ['wsp_alice', 0, 1],
          ['wsp_alice', 1, 1],
          ['wsp_team', 0, 1],
        ]);
        assert.deepEqual(
          (await sql`select count(*) as n from sheet_counts where workspace_id like 'usr%'`.execute(db)).rows.map((r: any) => Number(r.n)),
          [0],
        );

        // The triggers keep working under the new names: a new personal sheet is counted (and on PostgreSQL tokenized).
        await db
          .insertInto('sheets')
          .values({ id: 'sht_a3', workspace_id: 'wsp_alice', user_id: 'usr_alice', title: 'new', content: '{}', tags: '[]', search_text: 'new', created_at: AT, updated_at: AT })
          .execute();
        assert.deepEqual((await counts())[0], ['wsp_alice', 0, 2]);
        if (dialect === 'postgres') {
          const tokens = await sql<{ sheet_id: string; workspace_id: string }>`select sheet_id, workspace_id from sheet_tokens order by sheet_id`.execute(db);
          assert.deepEqual(
            tokens.rows.map((r) => [r.sheet_id, r.workspace_id]),
            [
              ['sht_a1', 'wsp_alice'],
              ['sht_a2', 'wsp_alice'],
              ['sht_a3', 'wsp_alice'],
              ['sht_t1', 'wsp_team'],
            ],
          );
          await db.insertInto('outbox').values({ id: 'evt_b', workspace_id: 'wsp_alice', event: 'sheet.created', data: '{}', created_at: AT, dispatched_at: null }).execute();
          const evt = await db.selectFrom('outbox').select('dispatched_at').where('id', '=', 'evt_b').executeTakeFirstOrThrow();
          assert.equal(evt.dispatched_at, null, "alice's enabled * webhook wants the event: it waits for the fan-out");
        } else {
          const queued = await sql<{ kind: string; record_id: string }>`select distinct kind, record_id from search_queue order by kind, record_id`.execute(db);
          assert.deepEqual(
            queued.rows.map((r) => `${r.kind}:${r.record_id}`),
            ['knowledge:sol_a', 'knowledge:sol_t', 'session:ses_a', 'session:ses_t_bob', 'session:ses_t_old', 'sheet:sht_a1', 'sheet:sht_a3', 'sheet:sht_t1', 'todo:td_t'],
            'every searchable record is indexed again (its FTS row held the old owner word)',
          );
        }
      } finally {
        await close();
      }
    });
  });
}
