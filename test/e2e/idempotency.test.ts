import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { manualClock } from '../../src/clock.js';
import { idempotencyOwner, requestFingerprint } from '../../src/modules/idempotency/idempotency.service.js';
import { assertError, createPgDatabase, dialects, startServer, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { startProcess, type ServerProcess } from '../processes.js';

for (const dialect of dialects()) {
  describe(`Idempotency-Key [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-01T10:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'business' } });

    const post = (url: string, body: unknown, idem?: string, key = alice.key) => s.req('POST', url, { key, body, headers: idem === undefined ? {} : { 'idempotency-key': idem } });
    const sheetCount = async (userId = alice.userId) =>
      Number(
        (
          await s.c.db
            .selectFrom('sheets')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('replays the first answer (status, body, Idempotent-Replayed) and creates one record and one event', async () => {
      const before = await sheetCount();
      const first = await post('/v1/sheets', { title: 'Once' }, 'create-once-1');
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.headers.get('idempotent-replayed'), null);
      clock.advance(1000);
      const again = await post('/v1/sheets', { title: 'Once' }, 'create-once-1');
      assert.equal(again.status, first.status);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.match(again.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(again.headers.get('etag'), '"1"', 'a replayed answer that returns one sheet keeps its ETag');
      assert.equal(await sheetCount(), before + 1);
      assert.equal((await s.events('sheet.created')).filter((e) => e.data.sheet_id === first.body.id).length, 1);
      const plain = await post('/v1/sheets', { title: 'Once' });
      assert.notEqual(plain.body.id, first.body.id, 'without a key every POST runs');
    });

    it('10 concurrent POSTs with one key: exactly one record; the others replay it or get 409 in progress', async () => {
      const body = { title: 'Raced', content: 'fix', error: 'E' };
      const results = await Promise.all(Array.from({ length: 10 }, () => post('/v1/knowledge?type=solutions', body, 'race-key')));
      const okOnes = results.filter((r) => r.status === 200);
      assert.ok(okOnes.length >= 1);
      for (const r of okOnes) assert.equal(r.body.id, okOnes[0].body.id);
      assert.equal(results.filter((r) => r.headers.get('idempotent-replayed') !== 'true' && r.status === 200).length, 1, 'one ran');
      for (const r of results.filter((x) => x.status !== 200)) assertError(r, 409, 'idempotency_key_in_progress');
      const rows = await s.c.db.selectFrom('knowledge').select('id').where('user_id', '=', alice.userId).where('title', '=', 'Raced').execute();
      assert.equal(rows.length, 1);
      assert.equal((await s.events('knowledge.saved')).filter((e) => e.data.title === 'Raced').length, 1);
      const later = await post('/v1/knowledge?type=solutions', body, 'race-key');
      assert.equal(later.headers.get('idempotent-replayed'), 'true');
      assert.equal(later.body.id, okOnes[0].body.id);
    });

    it('a request still running answers 409 idempotency_key_in_progress', async () => {
      const body = { title: 'Slow' };
      const owner = idempotencyOwner(await s.c.apiKeys.authenticate(`Bearer ${alice.key}`));
      const claim = await s.c.idempotency.begin(owner, 'held-key', requestFingerprint('POST', '/v1/sheets', body));
      assert.equal(claim.kind, 'run');
      assertError(await post('/v1/sheets', body, 'held-key'), 409, 'idempotency_key_in_progress', /still running/);
      if (claim.kind === 'run') await claim.release();
      assert.equal((await post('/v1/sheets', body, 'held-key')).status, 200, 'a released key runs');
    });

    it('same key with another body, path or query: 422 idempotency_key_reused, nothing created', async () => {
      assert.equal((await post('/v1/sheets', { title: 'A' }, 'reuse-1')).status, 200);
      const before = await sheetCount();
      assertError(await post('/v1/sheets', { title: 'B' }, 'reuse-1'), 422, 'idempotency_key_reused', /different request/);
      assertError(await post('/v1/knowledge?type=snippets', { title: 'A', content: 'x' }, 'reuse-1'), 422, 'idempotency_key_reused');
      assert.equal(await sheetCount(), before);
    });

    it('only 2xx answers are kept: a corrected retry after a 4xx runs', async () => {
      assertError(await post('/v1/stats?action=worktime', { hours: 99 }, 'log-1'), 400, 'invalid_request');
      assertError(await post('/v1/stats?action=worktime', { hours: 99 }, 'log-1'), 400, 'invalid_request');
      const good = await post('/v1/stats?action=worktime', { hours: 2, date: '2026-05-01' }, 'log-1');
      assert.equal(good.status, 200, JSON.stringify(good.body));
      assert.equal((await post('/v1/stats?action=worktime', { hours: 2, date: '2026-05-01' }, 'log-1')).headers.get('idempotent-replayed'), 'true');
      const logs = await s.c.db.selectFrom('work_logs').select('id').where('user_id', '=', alice.userId).execute();
      assert.equal(logs.length, 1, 'no stats count twice');
    });

    it('a spark run with a key runs once: one spark_runs row, one spark.executed event', async () => {
      const body = { spark_id: 'spk_word_count', content: 'one two three' };
      const [a, b] = [await post('/v1/spark', body, 'spark-1'), await post('/v1/spark', body, 'spark-1')];
      assert.equal(a.status, 200, JSON.stringify(a.body));
      assert.deepEqual(b.body, a.body);
      assert.equal(b.headers.get('idempotent-replayed'), 'true');
      const runs = await s.c.db.selectFrom('spark_runs').select('id').where('user_id', '=', alice.userId).execute();
      assert.equal(runs.length, 1);
      assert.equal((await s.events('spark.executed')).filter((e) => e.workspace_id === alice.personalWorkspace).length, 1);
    });

    it('a stored answer is sealed: a new API key is replayed but never stored in the clear', async () => {
      const a = await post('/v1/api-keys', { name: 'retry-safe' }, 'new-key-1');
      assert.equal(a.status, 200, JSON.stringify(a.body));
      const b = await post('/v1/api-keys', { name: 'retry-safe' }, 'new-key-1');
      assert.equal(b.body.api_key, a.body.api_key);
      const row = await s.c.db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', alice.userId).where('key', '=', 'new-key-1').executeTakeFirstOrThrow();
      assert.equal(row.response!.includes(a.body.api_key), false);
      assert.equal(row.response!.includes('retry-safe'), false);
    });

    it('todo syncs with a key run once', async () => {
      const body = { project: 'idem', todos: [{ content: 'Once', status: 'pending' }] };
      const [a, b] = [await post('/v1/todos', body, 'todo-1'), await post('/v1/todos', body, 'todo-1')];
      assert.deepEqual(b.body, a.body);
      assert.equal(b.headers.get('idempotent-replayed'), 'true');
    });

    it('bad keys are a 400 naming the header', async () => {
      for (const bad of ['', 'has space', 'x'.repeat(256), 'caf\u00e9']) {
        assertError(await post('/v1/sheets', { title: 'Bad' }, bad), 400, 'invalid_request', /Idempotency-Key/);
      }
      assert.equal((await post('/v1/sheets', { title: 'Ok' }, 'x'.repeat(255))).status, 200);
      assert.equal((await post('/v1/sheets', { title: 'Ok' }, '~!@#$%^&*()_+{}|:"<>?')).status, 200);
    });

    it('keys belong to one account (and credential: test/api/idempotency-credentials.test.ts)', async () => {
      const bob = await s.user('pro');
      const a = await post('/v1/sheets', { title: 'Mine' }, 'shared-key');
      const b = await post('/v1/sheets', { title: 'Mine' }, 'shared-key', bob.key);
      assert.equal(b.status, 200);
      assert.equal(b.headers.get('idempotent-replayed'), null);
      assert.notEqual(a.body.id, b.body.id);
    });

    it('a key expires after 24 hours: the same request runs again, and the purge removes old keys', async () => {
      const first = await post('/v1/sheets', { title: 'Daily' }, 'daily-key');
      clock.advance(24 * 3600_000 - 1000);
      assert.equal((await post('/v1/sheets', { title: 'Daily' }, 'daily-key')).body.id, first.body.id);
      clock.advance(2000);
      const next = await post('/v1/sheets', { title: 'Daily' }, 'daily-key');
      assert.notEqual(next.body.id, first.body.id);
      assert.equal(next.headers.get('idempotent-replayed'), null);
      clock.advance(24 * 3600_000 + 1);
      assert.ok((await s.c.idempotency.purgeExpired()) >= 1);
      const left = await s.c.db.selectFrom('idempotency_keys').select('key').where('user_id', '=', alice.userId).execute();
      assert.deepEqual(left, []);
    });

    it('MCP create tools take idempotency_key with the same rule', async () => {
      const client = await httpClient(s, alice.key);
      try {
        const call = (args: Record<string, unknown>) => client.callTool({ name: 'create_sheet', arguments: args });
        const before = await sheetCount();
        const first = ok(await call({ title: 'Via MCP', idempotency_key: 'mcp-1' }));
        const again = (await call({ title: 'Via MCP', idempotency_key: 'mcp-1' })) as CallToolResult;
        assert.deepEqual(ok(again), first);
        assert.deepEqual(again._meta, { idempotent_replayed: true });
        assert.equal(await sheetCount(), before + 1);
        toolError(await call({ title: 'Other', idempotency_key: 'mcp-1' }), 422, 'idempotency_key_reused');
        toolError(await call({ title: 'Bad', idempotency_key: 'with space' }), 400, 'invalid_request');
        const tools = (await client.listTools()).tools;
        const schema = (n: string) => tools.find((t) => t.name === n)!.inputSchema.properties ?? {};
        assert.ok('idempotency_key' in schema('create_sheet'));
        assert.ok('idempotency_key' in schema('save_knowledge'));
        assert.equal('idempotency_key' in schema('get_sheet'), false);
        // Edits that add rather than set: a retried append or add_column must not land twice.
        const id = first.id;
        const append = { id, html: '<p>once</p>', idempotency_key: 'mcp-append-1' };
        ok(await client.callTool({ name: 'append_to_sheet', arguments: append }));
        const appendAgain = (await client.callTool({ name: 'append_to_sheet', arguments: append })) as CallToolResult;
        assert.deepEqual(appendAgain._meta, { idempotent_replayed: true });
        const column = { id, idempotency_key: 'mcp-column-1' };
        assert.equal(ok(await client.callTool({ name: 'add_column', arguments: column })).column, 'col2');
        assert.equal(ok(await client.callTool({ name: 'add_column', arguments: column })).column, 'col2');
        const sheet = (await s.req('GET', `/v1/sheets/${id}`, { key: alice.key })).body.sheet;
        assert.deepEqual([sheet.content, sheet.version], [{ col1: '<p>once</p>', col2: '' }, 3]);
      } finally {
        await client.close();
      }
    });

    it('OpenAPI documents Idempotency-Key on every POST, with 409 and 422', async () => {
      const doc = (await s.req('GET', '/v1/openapi.json')).body;
      let posts = 0;
      for (const [p, item] of Object.entries<any>(doc.paths)) {
        if (!item.post) continue;
        posts++;
        const param = (item.post.parameters ?? []).find((x: any) => x.in === 'header' && x.name === 'idempotency-key');
        assert.ok(param, `POST ${p} documents the idempotency-key header`);
        assert.equal(param.required, false);
        assert.ok(item.post.responses['409'] && item.post.responses['422'], `POST ${p} documents 409 and 422`);
        assert.match(item.post.responses['409'].description, /idempotency_key_in_progress/, `POST ${p}: its 409 names idempotency_key_in_progress`);
        assert.match(item.post.responses['422'].description, /idempotency_key_reused/, `POST ${p}: its 422 names idempotency_key_reused`);
        assert.ok(item.post.responses['200']?.headers?.['Idempotent-Replayed'], `POST ${p} documents the Idempotent-Replayed answer header`);
      }
      assert.ok(posts > 10);
    });
  });

  it(`an answer is replayed after a restart, from the database [${dialect}]`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-idem-'));
    const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
    try {
      const first = await startServer(dialect, { dataDir, databaseUrl: pg?.url });
      const { key } = await first.user('pro');
      const a = await first.req('POST', '/v1/sheets', { key, body: { title: 'Survives' }, headers: { 'idempotency-key': 'restart-1' } });
      await first.close();
      const second = await startServer(dialect, { dataDir, databaseUrl: pg?.url });
      const b = await second.req('POST', '/v1/sheets', { key, body: { title: 'Survives' }, headers: { 'idempotency-key': 'restart-1' } });
      await second.close();
      assert.deepEqual(b.body, a.body);
      assert.equal(b.headers.get('idempotent-replayed'), 'true');
    } finally {
      await pg?.drop();
    }
  });
}

describe('Idempotency-Key across two processes on one PostgreSQL', { skip: process.env.TEST_POSTGRES_URL ? undefined : 'TEST_POSTGRES_URL is not set' }, () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let s: TestServer;
  let other: ServerProcess;
  before(async () => {
    pg = await createPgDatabase();
    // Processes sharing a database share SECRET_KEY, which seals stored answers.
    const SECRET_KEY = randomBytes(32).toString('hex');
    s = await startServer('postgres', { databaseUrl: pg.url, env: { SECRET_KEY } });
    other = await startProcess({ DATABASE_URL: pg.url, SECRET_KEY });
  });
  after(async () => {
    await other?.stop();
    await s?.close();
    await pg?.drop();
  });

  it('10 concurrent same-key POSTs over both processes create one sheet', async () => {
    const { key, userId } = await s.user('business');
    const send = (i: number) =>
      fetch(`${i % 2 ? other.url : s.url}/v1/sheets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'two-procs' },
        body: JSON.stringify({ title: 'Shared' }),
      }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: await r.json() }));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i)));
    const done = results.filter((r) => r.status === 200);
    assert.equal(done.filter((r) => r.replayed !== 'true').length, 1);
    for (const again of await Promise.all([send(0), send(1)])) {
      assert.equal(again.replayed, 'true', 'both processes replay the stored answer');
      assert.equal(again.body.id, done[0].body.id);
    }
    for (const r of done) assert.equal(r.body.id, done[0].body.id);
    for (const r of results.filter((x) => x.status !== 200)) assert.equal(r.body.code, 'idempotency_key_in_progress');
    const rows = await s.c.db.selectFrom('sheets').select('id').where('user_id', '=', userId).execute();
    assert.equal(rows.length, 1);
  });
});
