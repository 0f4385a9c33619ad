import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { createPgDatabase, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { migrationProvider } from '../../src/db/migrations/index.js';

/**
 * A list's total is the owner's sheets in that state, exactly, while many writes of the same accounts
 * run at once. It is the sum of the counts triggers keep (migration 021; sharded on PostgreSQL), so
 * each kind of write is sent in parallel and the totals compared with count(*) over the table after
 * each round.
 */
for (const dialect of dialects()) {
  describe(`sheet counts under concurrent writes [${dialect}]`, () => {
    const {
      s,
      users: { a, b },
    } = useServer(dialect, { users: { a: 'business', b: 'business' } });

    const total = async (key: string, trashed: boolean) => {
      const r = await s.req('GET', `/v1/sheets?limit=1${trashed ? '&trashed=true' : ''}`, { key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.total as number;
    };
    const counted = async (userId: string, trashed: boolean) => {
      const q = s.c.db
        .selectFrom('sheets')
        .where('user_id', '=', userId)
        .where('trashed_at', trashed ? 'is not' : 'is', null);
      return Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    };
    /** Both accounts, both states: the list's total equals a count of the rows, and the expected figures. */
    const assertTotals = async (expected: { a: [number, number]; b: [number, number] }) => {
      for (const [u, [live, trashed]] of [[a, expected.a] as const, [b, expected.b] as const]) {
        assert.deepEqual([await total(u.key, false), await total(u.key, true)], [live, trashed]);
        assert.deepEqual([await counted(u.userId, false), await counted(u.userId, true)], [live, trashed]);
      }
    };
    const ok = (r: { status: number; body: unknown }) => assert.equal(r.status, 200, JSON.stringify(r.body));

    it('keeps totals exact through parallel creates, trashes, restores, deletes and a purge', async () => {
      const post = (key: string, i: number) => s.req('POST', '/v1/sheets', { key, body: { title: `Sheet ${i}`, content: { col1: `<p>text ${i}</p>` } } });
      const created = await Promise.all([...Array.from({ length: 60 }, (_, i) => post(a.key, i)), ...Array.from({ length: 20 }, (_, i) => post(b.key, i))]);
      created.forEach(ok);
      const ids = created.slice(0, 60).map((r) => r.body.id as string);
      await assertTotals({ a: [60, 0], b: [20, 0] });

      // 20 to the trash and 10 edits that leave the state alone, all at once.
      const trash = ids.slice(0, 20);
      const edits = ids.slice(40, 50).map((id) => s.req('PUT', `/v1/sheets/${id}`, { key: a.key, body: { title: 'edited' } }));
      (await Promise.all([...trash.map((id) => s.req('DELETE', `/v1/sheets/${id}`, { key: a.key })), ...edits])).forEach(ok);
      await assertTotals({ a: [40, 20], b: [20, 0] });

      // At once: 5 restored, 5 trashed ones deleted for good, 5 live ones deleted for good, 10 new for b.
      (
        await Promise.all([
          ...trash.slice(0, 5).map((id) => s.req('POST', `/v1/sheets/${id}/restore`, { key: a.key })),
          ...trash.slice(5, 10).map((id) => s.req('DELETE', `/v1/sheets/${id}?permanent=true`, { key: a.key })),
          ...ids.slice(20, 25).map((id) => s.req('DELETE', `/v1/sheets/${id}?permanent=true`, { key: a.key })),
          ...Array.from({ length: 10 }, (_, i) => post(b.key, 100 + i)),
        ])
      ).forEach(ok);
      await assertTotals({ a: [40, 10], b: [30, 0] });

      // A write that fails leaves the counts alone: trashing a sheet already gone.
      assert.equal((await s.req('DELETE', `/v1/sheets/${ids[20]}`, { key: a.key })).status, 404);
      // One statement removing several accounts' trashed sheets (as the 30-day purge does).
      (await Promise.all(ids.slice(50, 53).map((id) => s.req('DELETE', `/v1/sheets/${id}`, { key: a.key })))).forEach(ok);
      const bSheet = created[60].body.id as string;
      ok(await s.req('DELETE', `/v1/sheets/${bSheet}`, { key: b.key }));
      await assertTotals({ a: [37, 13], b: [29, 1] });
      await s.c.db.deleteFrom('sheets').where('trashed_at', 'is not', null).execute();
      await assertTotals({ a: [37, 0], b: [29, 0] });
    });
  });
}

async function databaseAt(dialect: string): Promise<{ db: Kysely<any>; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const database = await createPgDatabase();
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
    return { db, drop: async () => (await db.destroy(), await database.drop()) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-counts-'));
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'db.sqlite')) }) });
  return { db, drop: async () => (await db.destroy(), fs.rmSync(dir, { recursive: true, force: true })) };
}

for (const dialect of dialects()) {
  describe(`sheet counts of sheets written before migration 021 [${dialect}]`, () => {
    it('counts the existing sheets when the migration runs, then keeps counting', async () => {
      const { db, drop } = await databaseAt(dialect);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('020_sheet_text_lz4')).error, undefined);
        const at = new Date().toISOString();
        for (const user of ['usr_a', 'usr_b']) await db.insertInto('users').values({ id: user, name: user, plan: 'business', created_at: at }).execute();
        const sheet = (id: string, user: string, trashed: boolean) => ({
          id,
          user_id: user,
          title: id,
          content: '{}',
          tags: '[]',
          search_text: id,
          created_at: at,
          updated_at: at,
          trashed_at: trashed ? at : null,
        });
        await db
          .insertInto('sheets')
          .values([sheet('s1', 'usr_a', false), sheet('s2', 'usr_a', false), sheet('s3', 'usr_a', true), sheet('s4', 'usr_b', false)])
          .execute();
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        // Since migration 042 a sheet names its workspace, and user_id its maker.
        const { user_id: maker, ...s5 } = sheet('s5', 'usr_a', false);
        await db
          .insertInto('sheets')
          .values({ ...s5, workspace_id: 'wsp_a', user_id: maker })
          .execute();
        await db.updateTable('sheets').set({ trashed_at: at }).where('id', '=', 's1').execute();
        await db.updateTable('sheets').set({ title: 'renamed', trashed_at: at }).where('id', '=', 's3').execute();
        await db.deleteFrom('sheets').where('id', '=', 's4').execute();
        const { rows } = await sql<{
          workspace_id: string;
          trashed: number;
          n: string;
        }>`select workspace_id, trashed, cast(sum(n) as text) as n from sheet_counts group by workspace_id, trashed order by workspace_id, trashed`.execute(db);
        assert.deepEqual(
          rows.map((r) => [r.workspace_id, Number(r.trashed), Number(r.n)]),
          [
            ['wsp_a', 0, 2],
            ['wsp_a', 1, 2],
            ['wsp_b', 0, 0],
          ],
        );
      } finally {
        await drop();
      }
    });
  });
}
