import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { createPgDatabase, dialects, startServer, type Res, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { startProcess, type ServerProcess } from '../processes.js';
import { httpClient, ok } from '../mcp-helpers.js';

const TODOS = [
  { content: 'Write the parser', status: 'pending' },
  { content: 'Test the parser', status: 'in_progress' },
  { content: 'Ship it', status: 'pending' },
];

/** A 412 body: version_conflict plus the version the record is at now. */
function assertConflict(res: Res, current: number) {
  assert.equal(res.status, 412, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.equal(res.body.code, 'version_conflict');
  assert.equal(res.body.current_version, current);
  assert.equal(typeof res.body.error, 'string');
}

for (const dialect of dialects()) {
  describe(`knowledge and todos under concurrent writers [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { users: { alice: 'business' } });

    const sync = (body: unknown) => s.req('POST', '/v1/todos', { key: alice.key, body });
    const todos = async (project: string) => (await s.req('GET', `/v1/todos?project=${project}`, { key: alice.key })).body.todos as any[];
    const save = async () => (await s.req('POST', '/v1/knowledge?type=snippets', { key: alice.key, body: { title: 'T', content: 'c' } })).body.snippet;

    it('5 concurrent identical syncs of 3 todos leave exactly 3, all at version 1', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => sync({ project: 'race', todos: TODOS })));
      for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(
        results.reduce((n, r) => n + r.body.created, 0),
        3,
        'each task is created once',
      );
      const rows = await todos('race');
      assert.deepEqual(rows.map((t) => t.content).sort(), TODOS.map((t) => t.content).sort());
      assert.deepEqual(
        rows.map((t) => t.version),
        [1, 1, 1],
        'a sync that changes nothing keeps the version',
      );
    });

    it('concurrent syncs with different statuses converge on one task each; every change is counted in version', async () => {
      const statuses = ['pending', 'in_progress', 'completed', 'pending', 'completed', 'in_progress'] as const;
      const results = await Promise.all(statuses.map((status) => sync({ project: 'flip', todos: [{ content: 'Flip', status }] })));
      for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
      const rows = await todos('flip');
      assert.equal(rows.length, 1);
      assert.ok(rows[0].version >= 1 && rows[0].version <= statuses.length);
    });

    it('todo versions: +1 per change, expected_version on an element with id, If-Match on delete', async () => {
      const [task] = (await sync({ project: 'v', todos: [{ content: 'Versioned', status: 'pending' }] })).body.todos;
      assert.equal(task.version, 1);
      const same = await sync({ project: 'v', todos: [{ id: task.id, content: 'Versioned', status: 'pending', expected_version: 1 }] });
      assert.equal(same.body.todos[0].version, 1, 'no change, no new version');
      const moved = await sync({ project: 'v', todos: [{ id: task.id, content: 'Versioned', status: 'completed', expected_version: 1 }] });
      assert.equal(moved.body.todos[0].version, 2);
      const stale = await sync({
        project: 'v',
        todos: [
          { content: 'New one', status: 'pending' },
          { id: task.id, content: 'Versioned', status: 'pending', expected_version: 1 },
        ],
      });
      assertConflict(stale, 2);
      assert.deepEqual(
        (await todos('v')).map((t) => [t.content, t.status]),
        [['Versioned', 'completed']],
        'a 412 changes nothing, all or nothing',
      );
      const noId = await sync({ project: 'v', todos: [{ content: 'Versioned', status: 'pending', expected_version: 2 }] });
      assert.equal(noId.status, 400);

      const del = (ifMatch: string) => s.req('DELETE', `/v1/todos/${task.id}`, { key: alice.key, headers: { 'if-match': ifMatch } });
      assertConflict(await del('"1"'), 2);
      assert.equal((await del('W/"7", "9"')).status, 412);
      assert.equal((await del('nonsense')).status, 400);
      assert.equal((await del('"2"')).status, 200);
      assert.deepEqual(await todos('v'), []);
    });

    it('a task renamed away from its content hands the match over to the next task with that content', async () => {
      const a = (await sync({ project: 'dup', todos: [{ content: 'A', status: 'pending' }] })).body.todos[0];
      const b = (await sync({ project: 'dup', todos: [{ content: 'B', status: 'pending' }] })).body.todos.find((t: any) => t.content === 'B');
      // Renamed by id onto A's content: two tasks now read "A"; sync keeps matching the older one.
      await sync({ project: 'dup', todos: [{ id: b.id, content: 'A', status: 'pending' }] });
      const r1 = await sync({ project: 'dup', todos: [{ content: 'A', status: 'completed' }] });
      assert.equal(r1.body.created, 0);
      assert.equal(r1.body.todos.find((t: any) => t.id === a.id).status, 'completed');
      // A is deleted: the other "A" is what a sync by content matches now, not a new task.
      await s.req('DELETE', `/v1/todos/${a.id}`, { key: alice.key });
      const r2 = await sync({ project: 'dup', todos: [{ content: 'A', status: 'in_progress' }] });
      assert.equal(r2.body.created, 0);
      assert.deepEqual(
        r2.body.todos.map((t: any) => [t.id, t.status]),
        [[b.id, 'in_progress']],
      );
    });

    it('4 concurrent PUTs of different knowledge fields keep all 4, version 5', async () => {
      const entry = await save();
      const patches = [{ title: 'New title' }, { content: 'new code' }, { language: 'rust' }, { description: 'what it does' }];
      const results = await Promise.all(patches.map((body) => s.req('PUT', `/v1/knowledge/${entry.id}`, { key: alice.key, body })));
      for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
      const got = (await s.req('GET', `/v1/knowledge/${entry.id}`, { key: alice.key })).body.snippet;
      assert.equal(got.title, 'New title');
      assert.equal(got.content, 'new code');
      assert.equal(got.language, 'rust');
      assert.equal(got.description, 'what it does');
      assert.equal(got.version, 5);
      assert.equal((await s.events('knowledge.saved')).filter((e) => e.data.id === entry.id).length, 5, 'one event per change');
    });

    it('20 concurrent tag edits with expected_version: exactly one wins, the rest get 412', async () => {
      const entry = await save();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.req('PUT', `/v1/knowledge/${entry.id}`, { key: alice.key, body: { tags: [`t${i}`], expected_version: 1 } })));
      assert.equal(results.filter((r) => r.status === 200).length, 1);
      for (const r of results.filter((x) => x.status !== 200)) assertConflict(r, 2);
    });

    it('MCP: update_knowledge, delete_knowledge, sync_todos and delete_todo take expected_version; a conflict names current_version', async () => {
      const client = await httpClient(s, alice.key);
      const conflict = (r: any, current: number) => {
        assert.equal(r.isError, true, JSON.stringify(r.content));
        const body = JSON.parse(r.content[0].text);
        assert.deepEqual([body.code, body.status, body.current_version], ['version_conflict', 412, current]);
        assert.match(body.error, new RegExp(`version ${current}`));
      };
      const entry = ok(await client.callTool({ name: 'save_knowledge', arguments: { type: 'snippets', title: 'M', content: 'c' } }));
      const id = entry.id ?? entry.snippet.id;
      assert.equal(ok(await client.callTool({ name: 'update_knowledge', arguments: { id, title: 'M2', expected_version: 1 } })).snippet.version, 2);
      conflict(await client.callTool({ name: 'update_knowledge', arguments: { id, title: 'M3', expected_version: 1 } }), 2);
      const listed = ok(await client.callTool({ name: 'search_knowledge', arguments: { type: 'snippets', q: 'M2' } })).snippets;
      assert.deepEqual(
        listed.map((x: any) => [x.id, x.version]),
        [[id, 2]],
        'compact search items carry version too',
      );
      conflict(await client.callTool({ name: 'delete_knowledge', arguments: { id, expected_version: 1 } }), 2);
      assert.equal(ok(await client.callTool({ name: 'delete_knowledge', arguments: { id, expected_version: 2 } })).success, true);
      const [todo] = ok(await client.callTool({ name: 'sync_todos', arguments: { project: 'mcpv', todos: [{ content: 'one', status: 'pending' }] } })).todos;
      assert.equal(todo.version, 1);
      const done = { project: 'mcpv', todos: [{ id: todo.id, content: 'one', status: 'completed', expected_version: 1 }] };
      assert.equal(ok(await client.callTool({ name: 'sync_todos', arguments: done })).todos[0].version, 2);
      conflict(await client.callTool({ name: 'sync_todos', arguments: done }), 2);
      conflict(await client.callTool({ name: 'delete_todo', arguments: { id: todo.id, expected_version: 1 } }), 2);
      assert.equal(ok(await client.callTool({ name: 'delete_todo', arguments: { id: todo.id, expected_version: 2 } })).success, true);
      await client.close();
    });

    it('knowledge versions: ETag on single-entry answers, If-Match on PUT and DELETE, no-op PUT keeps the version', async () => {
      const created = await s.req('POST', '/v1/knowledge?type=solutions', { key: alice.key, body: { title: 'E', content: 'fix', error: 'boom' } });
      assert.equal(created.body.solution.version, 1);
      assert.equal(created.headers.get('etag'), '"1"');
      const id = created.body.id;
      const put = (body: unknown, headers: Record<string, string> = {}) => s.req('PUT', `/v1/knowledge/${id}`, { key: alice.key, body, headers });
      const noop = await put({ title: 'E' }, { 'if-match': '"1"' });
      assert.equal(noop.body.solution.version, 1);
      assert.equal((await s.events('knowledge.saved')).filter((e) => e.data.id === id).length, 1, 'no event for a no-op');
      const changed = await put({ title: 'E2' }, { 'if-match': 'W/"1"' });
      assert.equal(changed.body.solution.version, 2);
      assert.equal(changed.headers.get('etag'), '"2"');
      assertConflict(await put({ title: 'E3' }, { 'if-match': '"1"' }), 2);
      assertConflict(await put({ title: 'E3', expected_version: 1 }), 2);
      assert.equal((await put({ title: 'E3', expected_version: 1 }, { 'if-match': '"2"' })).status, 400, 'header and body disagree');
      assert.equal((await put({ title: 'E3' }, { 'if-match': '*' })).body.solution.version, 3);
      const got = await s.req('GET', `/v1/knowledge/${id}`, { key: alice.key });
      assert.equal(got.headers.get('etag'), '"3"');
      assert.equal(got.body.solution.title, 'E3');
      const cached = await s.req('GET', `/v1/knowledge/${id}`, { key: alice.key, headers: { 'if-none-match': '"3"' } });
      assert.equal(cached.status, 304);
      assert.equal(cached.headers.get('etag'), '"3"');
      assert.equal((await s.req('GET', `/v1/knowledge/${id}`, { key: alice.key, headers: { 'if-none-match': '"2"' } })).status, 200);
      assertConflict(await s.req('DELETE', `/v1/knowledge/${id}`, { key: alice.key, headers: { 'if-match': '"2"' } }), 3);
      assert.equal((await s.req('DELETE', `/v1/knowledge/${id}`, { key: alice.key, headers: { 'if-match': '"3"' } })).status, 200);
    });
  });
}

describe('todo syncs from two processes on one PostgreSQL', { skip: process.env.TEST_POSTGRES_URL ? undefined : 'TEST_POSTGRES_URL is not set' }, () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let s: TestServer;
  let other: ServerProcess;
  before(async () => {
    pg = await createPgDatabase();
    s = await startServer('postgres', { databaseUrl: pg.url });
    other = await startProcess({ DATABASE_URL: pg.url });
  });
  after(async () => {
    await other?.stop();
    await s?.close();
    await pg?.drop();
  });

  it('5 identical syncs split over two processes leave exactly 3; 4 field PUTs keep 4', async () => {
    const { key } = await s.user('business');
    const servers = [s, other, s, other, s];
    const results = await Promise.all(servers.map((srv) => srv.req('POST', '/v1/todos', { key, body: { project: 'two', todos: TODOS } })));
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
    const rows = (await s.req('GET', '/v1/todos?project=two', { key })).body.todos;
    assert.equal(rows.length, 3);

    const entry = (await s.req('POST', '/v1/knowledge?type=snippets', { key, body: { title: 'T', content: 'c' } })).body.snippet;
    const patches = [{ title: 'New title' }, { content: 'new code' }, { language: 'rust' }, { description: 'what it does' }];
    await Promise.all(patches.map((body, i) => (i % 2 ? other : s).req('PUT', `/v1/knowledge/${entry.id}`, { key, body })));
    const got = (await s.req('GET', `/v1/knowledge/${entry.id}`, { key })).body.snippet;
    assert.deepEqual([got.title, got.content, got.language, got.description, got.version], ['New title', 'new code', 'rust', 'what it does', 5]);
  });
});

for (const dialect of dialects()) {
  it(`migration 012 keeps existing duplicate todos and gives the oldest the content key [${dialect}]`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-m012-'));
    const pgDb = dialect === 'postgres' ? await createPgDatabase() : undefined;
    const db = new Kysely<any>({
      dialect: pgDb ? new PostgresDialect({ pool: new pg.Pool({ connectionString: pgDb.url }) }) : new SqliteDialect({ database: new SQLite(path.join(dataDir, 'sheet-workspace.db')) }),
    });
    try {
      const names = Object.keys(await migrationProvider.getMigrations()).sort();
      const before = names[names.indexOf('012_knowledge_todo_versions_idempotency') - 1];
      const down = await new Migrator({ db, provider: migrationProvider }).migrateTo(before);
      assert.equal(down.error, undefined);
      const todo = (id: string, content: string, project = 'p') => ({
        id,
        user_id: 'usr_1',
        content,
        status: 'pending',
        project,
        priority: 'medium',
        active_form: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      });
      await db
        .insertInto('todos')
        .values([todo('td_1', 'Same'), todo('td_2', '  Same  '), todo('td_3', 'Other'), todo('td_4', 'Same', 'q')])
        .execute();
      const up = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
      assert.equal(up.error, undefined);
      const rows = await db.selectFrom('todos').select(['id', 'content_key', 'version']).orderBy('id').execute();
      assert.deepEqual(rows, [
        { id: 'td_1', content_key: 'Same', version: 1 },
        { id: 'td_2', content_key: null, version: 1 },
        { id: 'td_3', content_key: 'Other', version: 1 },
        { id: 'td_4', content_key: 'Same', version: 1 },
      ]);
      await assert.rejects(
        db
          .insertInto('todos')
          .values({ ...todo('td_5', 'Same'), content_key: 'Same' })
          .execute(),
        'the key is unique per user and project',
      );
    } finally {
      await db.destroy();
      await pgDb?.drop();
    }
  });
}
