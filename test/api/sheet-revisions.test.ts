import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { manualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { REVISIONS_KEEP_DEFAULT } from '../../src/modules/sheets/sheets.service.js';
import { assertError, assertIdRouteSecurity, createPgDatabase, dialects, startServer, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok } from '../mcp-helpers.js';
import { MemoryProvider, approve, connectWithOAuth } from '../oauth-helpers.js';

describe('revision settings', () => {
  it('keeps the newest 100 per sheet unless REVISIONS_KEEP says otherwise', () => {
    assert.equal(REVISIONS_KEEP_DEFAULT, 100);
    assert.equal(loadConfig({}).revisionsKeep, REVISIONS_KEEP_DEFAULT);
    assert.equal(loadConfig({ REVISIONS_KEEP: '7' }).revisionsKeep, 7);
    assert.throws(() => loadConfig({ REVISIONS_KEEP: '0' }), /REVISIONS_KEEP/);
  });
});

for (const dialect of dialects()) {
  describe(`sheet revisions [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-04-01T09:00:00.000Z'));
    let keyId: string;
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, env: { RATE_LIMIT_DISABLED: '1', REVISIONS_KEEP: '5' }, users: { alice: 'business' } });
    before(async () => {
      keyId = (await s.req('GET', '/v1/api-keys', { key: alice.key })).body.api_keys[0].id;
    });

    const req = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => s.req(method, `/v1${url}`, { key: alice.key, body, headers });
    const revisionCount = async (id: string) =>
      Number(
        (
          await s.c.db
            .selectFrom('sheet_revisions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('sheet_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('lists earlier versions newest first, with the changes and actor of the write that made each', async () => {
      const { body } = await req('POST', '/sheets', { title: 'One', content: { col1: '<p>first</p>' }, tags: ['a'] });
      const id = body.id;
      clock.advance(1000);
      await req('PUT', `/sheets/${id}`, { title: 'Two' });
      clock.advance(1000);
      await req('PUT', `/sheets/${id}`, { content: { col2: '<p>second</p>' }, folder: 'F' });
      await req('DELETE', `/sheets/${id}`);
      await req('POST', `/sheets/${id}/restore`);
      const list = await req('GET', `/sheets/${id}/revisions`);
      assert.equal(list.status, 200);
      assert.equal(list.body.total, 4);
      const actor = { type: 'api_key', id: keyId, name: 'default', user_id: alice.userId };
      assert.deepEqual(list.body.revisions, [
        { version: 4, title: 'Two', folder: 'F', tags: ['a'], changes: ['trashed'], updatedAt: '2026-04-01T09:00:02.000Z', actor },
        { version: 3, title: 'Two', folder: 'F', tags: ['a'], changes: ['content', 'folder'], updatedAt: '2026-04-01T09:00:02.000Z', actor },
        { version: 2, title: 'Two', folder: null, tags: ['a'], changes: ['title'], updatedAt: '2026-04-01T09:00:01.000Z', actor },
        { version: 1, title: 'One', folder: null, tags: ['a'], changes: ['created'], updatedAt: '2026-04-01T09:00:00.000Z', actor },
      ]);
      const page = await req('GET', `/sheets/${id}/revisions?limit=2&offset=1`);
      assert.deepEqual(
        page.body.revisions.map((r: any) => r.version),
        [3, 2],
      );
      assert.equal(page.body.total, 4);
      assertError(await req('GET', `/sheets/${id}/revisions?limit=x`), 400, 'invalid_request', /limit/);

      const one = await req('GET', `/sheets/${id}/revisions/1`);
      assert.deepEqual(one.body, {
        success: true,
        revision: { version: 1, title: 'One', content: { col1: '<p>first</p>' }, folder: null, tags: ['a'], updatedAt: '2026-04-01T09:00:00.000Z' },
      });
      assertError(await req('GET', `/sheets/${id}/revisions/5`), 404, 'not_found', /revision 5/);
      assertError(await req('GET', `/sheets/${id}/revisions/0`), 400, 'invalid_request', /version/);
      assertError(await req('GET', `/sheets/${id}/revisions/x`), 400, 'invalid_request', /version/);
    });

    it('restores a revision as a new version, emits sheet.updated, and honours If-Match', async () => {
      const { body } = await req('POST', '/sheets', { title: 'Keep', content: { col1: 'precious', col2: 'x' } });
      const id = body.id;
      await req('PUT', `/sheets/${id}`, { title: 'Oops', content: { col1: 'overwritten', col2: null } });
      assertError(await req('POST', `/sheets/${id}/revisions/9/restore`), 404, 'not_found');
      const conflict = await req('POST', `/sheets/${id}/revisions/1/restore`, undefined, { 'if-match': '"1"' });
      assert.equal(conflict.status, 412);
      assert.equal(conflict.body.current_version, 2);
      const restored = await req('POST', `/sheets/${id}/revisions/1/restore`, undefined, { 'if-match': '"2"' });
      assert.equal(restored.status, 200);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.deepEqual([restored.body.sheet.title, restored.body.sheet.content, restored.body.sheet.version], ['Keep', { col1: 'precious', col2: 'x' }, 3]);
      const [ev] = (await s.events('sheet.updated')).filter((e) => e.data.sheet_id === id && e.data.version === 3);
      assert.deepEqual(ev.data.changes, ['title', 'content']);
      assert.deepEqual(ev.data.columns, ['col1', 'col2']);
      const again = await req('POST', `/sheets/${id}/revisions/1/restore`);
      assert.equal(again.body.sheet.version, 3, 'restoring a revision equal to the current state changes nothing');
      const list = await req('GET', `/sheets/${id}/revisions`);
      assert.deepEqual(
        list.body.revisions.map((r: any) => [r.version, r.title]),
        [
          [2, 'Oops'],
          [1, 'Keep'],
        ],
      );
    });

    it('keeps only the newest REVISIONS_KEEP (5 here) and removes them with the sheet', async () => {
      const { body } = await req('POST', '/sheets', { title: 'cap' });
      const id = body.id;
      for (let i = 1; i <= 8; i++) await req('PUT', `/sheets/${id}`, { content: { col1: `v${i}` } });
      const list = await req('GET', `/sheets/${id}/revisions`);
      assert.equal(list.body.total, 5);
      assert.deepEqual(
        list.body.revisions.map((r: any) => r.version),
        [8, 7, 6, 5, 4],
      );
      assert.deepEqual((await req('GET', `/sheets/${id}/revisions/4`)).body.revision.content, { col1: 'v3' });
      assertError(await req('GET', `/sheets/${id}/revisions/3`), 404, 'not_found');
      await req('DELETE', `/sheets/${id}?permanent=true`);
      assert.equal(await revisionCount(id), 0);
    });

    it('the 30-day purge removes revisions of purged sheets only', async () => {
      const old = (await req('POST', '/sheets', { title: 'old' })).body.id;
      const kept = (await req('POST', '/sheets', { title: 'kept' })).body.id;
      await req('PUT', `/sheets/${old}`, { title: 'old 2' });
      await req('PUT', `/sheets/${kept}`, { title: 'kept 2' });
      await req('DELETE', `/sheets/${old}`);
      clock.advance(31 * 24 * 3600 * 1000);
      await req('DELETE', `/sheets/${kept}`);
      assert.ok((await s.c.sheets.purgeTrash()) >= 1);
      assert.equal(await revisionCount(old), 0);
      assert.equal(await revisionCount(kept), 2);
    });

    it('401/403/404 on the revision routes', async () => {
      const id = (await req('POST', '/sheets', { title: 'sec' })).body.id;
      await req('PUT', `/sheets/${id}`, { title: 'sec 2' });
      for (const route of [
        { method: 'GET', path: (x: string) => `/v1/sheets/${x}/revisions` },
        { method: 'GET', path: (x: string) => `/v1/sheets/${x}/revisions/1` },
        { method: 'POST', path: (x: string) => `/v1/sheets/${x}/revisions/1/restore` },
      ]) {
        await assertIdRouteSecurity(s, route, alice, id, 'sht_missing');
      }
    });

    it('actor names the console (with its key) and the OAuth client', async () => {
      const id = (await req('POST', '/sheets', { title: 'who' })).body.id;
      const signIn = await s.req('POST', '/console/session', { body: { api_key: alice.key }, headers: { 'x-console': '1' } });
      const cookie = /sw_console=([^;]*)/.exec(signIn.headers.get('set-cookie') ?? '')![1];
      const viaConsole = await s.req('PUT', `/v1/sheets/${id}`, { body: { title: 'console edit' }, headers: { cookie: `sw_console=${cookie}`, 'x-console': '1' } });
      assert.equal(viaConsole.status, 200, JSON.stringify(viaConsole.body));
      const provider = new MemoryProvider(undefined, undefined, 'Revision Agent');
      const client = await connectWithOAuth(s, provider, async (url) => (await approve(s, url, alice.key)).code);
      ok(await client.callTool({ name: 'update_sheet', arguments: { id, title: 'oauth edit' } }));
      await req('PUT', `/sheets/${id}`, { title: 'key edit' });
      const list = (await req('GET', `/sheets/${id}/revisions`)).body.revisions;
      assert.deepEqual(list[0].actor, { type: 'oauth_client', id: provider.info!.client_id, name: 'Revision Agent', user_id: alice.userId });
      assert.deepEqual(list[1].actor, { type: 'console', id: keyId, name: 'default', user_id: alice.userId }, 'the console names the key it was opened with');
      await client.close();
    });

    it('MCP: list_sheet_revisions, get_sheet_revision, restore_sheet_revision', async () => {
      const client = await httpClient(s, alice.key);
      const created = ok(await client.callTool({ name: 'create_sheet', arguments: { title: 'mcp', content: { col1: 'one' } } }));
      const id = created.id;
      ok(await client.callTool({ name: 'update_sheet', arguments: { id, content: { col1: 'two' }, expected_version: 1 } }));
      const stale = await client.callTool({ name: 'update_sheet', arguments: { id, content: { col1: 'three' }, expected_version: 1 } });
      assert.equal(stale.isError, true);
      const err = JSON.parse((stale.content as any)[0].text);
      assert.equal(err.code, 'version_conflict');
      assert.equal(err.status, 412);
      assert.equal(err.current_version, 2);
      const list = ok(await client.callTool({ name: 'list_sheet_revisions', arguments: { id } }));
      assert.equal(list.total, 1);
      assert.equal(list.has_more, false);
      assert.equal(list.revisions[0].version, 1);
      const rev = ok(await client.callTool({ name: 'get_sheet_revision', arguments: { id, version: 1 } }));
      assert.deepEqual(rev.revision.content, { col1: 'one' });
      const restored = ok(await client.callTool({ name: 'restore_sheet_revision', arguments: { id, version: 1, expected_version: 2 } }));
      assert.deepEqual([restored.sheet.content, restored.sheet.version], [{ col1: 'one' }, 3]);
      const trashConflict = await client.callTool({ name: 'trash_sheet', arguments: { id, expected_version: 2 } });
      assert.equal(JSON.parse((trashConflict.content as any)[0].text).current_version, 3);
      await client.close();
    });
  });

  // Audit finding 14: a team sheet's revisions show another member's write by that member (user id, account
  // name), never which of their API keys or apps it was; each member still sees their own credential.
  describe(`revisions of a team sheet: other members' credentials stay private [${dialect}]`, () => {
    const {
      s,
      users: { alice, bob },
    } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' }, users: { alice: 'business', bob: 'pro' } });

    it("a member sees another member's write as {user_id, account name}, and their own with its key", async () => {
      const as = (key: string) => (method: string, url: string, body?: unknown) => s.req(method, `/v1${url}`, { key, body });
      const team = (await as(alice.key)('POST', '/workspaces', { name: 'Team' })).body.workspace.id;
      const inv = (await as(alice.key)('POST', `/workspaces/${team}/invitations`, { role: 'editor' })).body.invitation;
      assert.equal((await as(bob.key)('POST', `/invitations/${inv.token}/accept`)).status, 200);
      const bobKey = (await as(bob.key)('POST', '/api-keys', { name: 'bob laptop (secret project)', scopes: ['*'] })).body;
      const aliceKeyId = (await as(alice.key)('GET', '/api-keys')).body.api_keys[0].id;
      const names = Object.fromEntries((await s.c.db.selectFrom('users').select(['id', 'name']).execute()).map((u) => [u.id, u.name]));

      const id = (await as(alice.key)('POST', '/sheets', { title: 'Plan', workspace_id: team })).body.id;
      assert.equal((await as(bobKey.api_key)('PUT', `/sheets/${id}`, { title: 'Plan by Bob' })).status, 200);
      assert.equal((await as(alice.key)('PUT', `/sheets/${id}`, { title: 'Plan by Alice' })).status, 200);

      const seenBy = async (key: string) => {
        const r = await as(key)('GET', `/sheets/${id}/revisions`);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return [r.body.current.actor, ...r.body.revisions.map((x: { actor: unknown }) => x.actor)];
      };
      const aliceOwn = { type: 'api_key', id: aliceKeyId, name: 'default', user_id: alice.userId };
      const bobOwn = { type: 'api_key', id: bobKey.id, name: 'bob laptop (secret project)', user_id: bob.userId };
      const aliceToBob = { type: 'api_key', id: null, name: names[alice.userId], user_id: alice.userId };
      const bobToAlice = { type: 'api_key', id: null, name: names[bob.userId], user_id: bob.userId };
      // current (alice's second write), then version 2 (bob's), version 1 (alice's create)
      assert.deepEqual(await seenBy(alice.key), [aliceOwn, bobToAlice, aliceOwn]);
      assert.deepEqual(await seenBy(bob.key), [aliceToBob, bobOwn, aliceToBob]);
      const text = JSON.stringify(await seenBy(alice.key));
      assert.equal(text.includes(bobKey.id), false, "bob's key id is not shown to alice");
      assert.equal(text.includes('secret project'), false, 'nor its name');

      // MCP reads through the same service.
      const client = await httpClient(s, alice.key);
      try {
        const listed = ok(await client.callTool({ name: 'list_sheet_revisions', arguments: { id } }));
        assert.deepEqual(listed.revisions[0].actor, bobToAlice);
      } finally {
        await client.close();
      }
    });
  });

  describe(`the default cap of 100 revisions [${dialect}]`, () => {
    const { s } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });

    it('after 102 changes the newest 100 earlier versions remain', async () => {
      const u = await s.user('business');
      const id = (await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'many' } })).body.id;
      for (let i = 1; i <= 102; i++) await s.req('PUT', `/v1/sheets/${id}`, { key: u.key, body: { content: { col1: `v${i}` } } });
      const list = await s.req('GET', `/v1/sheets/${id}/revisions?limit=100`, { key: u.key });
      assert.equal(list.body.total, 100);
      assert.equal(list.body.revisions[0].version, 102);
      assert.equal(list.body.revisions[99].version, 3);
    });
  });
}

for (const dialect of dialects()) {
  it(`migration 011 gives existing sheets version 1, and their first change keeps them as revision 1 [${dialect}]`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-m011-'));
    const pgDb = dialect === 'postgres' ? await createPgDatabase() : undefined;
    const db = new Kysely<any>({
      dialect: pgDb ? new PostgresDialect({ pool: new pg.Pool({ connectionString: pgDb.url }) }) : new SqliteDialect({ database: new SQLite(path.join(dataDir, 'sheet-workspace.db')) }),
    });
    let s: TestServer | undefined;
    try {
      assert.equal((await new Migrator({ db, provider: migrationProvider }).migrateTo('010_sheet_live_index')).error, undefined);
      const at = '2026-01-01T00:00:00.000Z';
      await db
        .insertInto('sheets')
        .values({ id: 'sht_old', user_id: 'usr_x', title: 'Old', content: '{"col1":"<p>kept</p>"}', folder: null, tags: '[]', search_text: 'old\nkept', created_at: at, updated_at: at, trashed_at: null })
        .execute();
      assert.equal((await new Migrator({ db, provider: migrationProvider }).migrateToLatest()).error, undefined);
      await db.destroy();
      s = await startServer(dialect, { dataDir, databaseUrl: pgDb?.url });
      const u = await s.user('pro');
      await s.c.db.updateTable('sheets').set({ workspace_id: u.personalWorkspace, user_id: u.userId }).where('id', '=', 'sht_old').execute();
      assert.equal((await s.req('GET', '/v1/sheets/sht_old', { key: u.key })).body.sheet.version, 1);
      assert.equal((await s.req('PUT', '/v1/sheets/sht_old', { key: u.key, body: { title: 'New' }, headers: { 'if-match': '"1"' } })).body.sheet.version, 2);
      const list = await s.req('GET', '/v1/sheets/sht_old/revisions', { key: u.key });
      assert.deepEqual(list.body.revisions, [{ version: 1, title: 'Old', folder: null, tags: [], changes: [], updatedAt: at, actor: null }]);
      assert.deepEqual((await s.req('GET', '/v1/sheets/sht_old/revisions/1', { key: u.key })).body.revision.content, { col1: '<p>kept</p>' });
    } finally {
      if (s) await s.close();
      else await db.destroy();
      await pgDb?.drop();
    }
  });
}
