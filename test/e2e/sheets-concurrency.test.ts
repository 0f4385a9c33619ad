import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Container } from '../../src/container.js';
import { assertError, dialects, type Res } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { startTwoPgProcesses, type ServerProcess } from '../processes.js';
import { httpClient, ok } from '../mcp-helpers.js';

/** A 412 body: the error fields plus current_version. */
function assertConflict(res: Res, current: number) {
  assert.equal(res.status, 412, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'current_version', 'error', 'success']);
  assert.equal(res.body.code, 'version_conflict');
  assert.equal(res.body.current_version, current);
}

const twenty = Array.from({ length: 20 }, (_, i) => `col${i + 1}`);

for (const dialect of dialects()) {
  describe(`sheet versions and atomic writes [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' }, users: { alice: 'business' } });

    const create = async (body: unknown = { title: 'race' }) => (await s.req('POST', '/v1/sheets', { key: alice.key, body })).body.sheet;
    const put = (id: string, body: unknown, headers?: Record<string, string>) => s.req('PUT', `/v1/sheets/${id}`, { key: alice.key, body, headers });

    it('20 concurrent PUTs, each setting a different column, keep all 20; version ends at 21', async () => {
      const sheet = await create();
      const results = await Promise.all(twenty.map((k) => put(sheet.id, { content: { [k]: `<p>${k}</p>` } })));
      assert.deepEqual(
        results.map((r) => r.status),
        twenty.map(() => 200),
      );
      assert.deepEqual(
        [...new Set(results.map((r) => r.body.sheet.version))].sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 2),
      );
      const got = await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key });
      assert.deepEqual(Object.keys(got.body.sheet.content).sort(), [...twenty].sort());
      assert.equal(got.body.sheet.version, 21);
      assert.equal(got.headers.get('etag'), '"21"');
      const events = (await s.events('sheet.updated')).filter((e) => e.data.sheet_id === sheet.id);
      assert.equal(events.length, 20);
      assert.deepEqual(
        events.map((e) => e.data.version).sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 2),
      );
      for (const e of events) assert.equal(e.data.columns.length, 1);
    });

    it('creating answers version 1 with ETag "1"; GET with If-None-Match answers 304', async () => {
      const r = await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'etag' } });
      assert.equal(r.body.sheet.version, 1);
      assert.equal(r.headers.get('etag'), '"1"');
      const id = r.body.id;
      const notModified = await s.req('GET', `/v1/sheets/${id}`, { key: alice.key, headers: { 'if-none-match': '"1"' } });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.body, '');
      assert.equal(notModified.headers.get('etag'), '"1"');
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key, headers: { 'if-none-match': 'W/"1"' } })).status, 304);
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key, headers: { 'if-none-match': '"2"' } })).status, 200);
      assertError(await s.req('GET', `/v1/sheets/${id}`, { key: alice.key, headers: { 'if-none-match': 'nope' } }), 400, 'invalid_request', /If-None-Match/);
    });

    it('a handover answer carries ETag "1", and its sheet records the key as the actor', async () => {
      const session = await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: 'work', summary: 'done', project: 'etag' } });
      const r = await s.req('POST', '/v1/sessions/handover', { key: alice.key, body: { session_id: session.body.id } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.sheet.version, 1);
      assert.equal(r.headers.get('etag'), '"1"');
      await put(r.body.handover_id, { title: 'renamed' });
      const revisions = await s.req('GET', `/v1/sheets/${r.body.handover_id}/revisions`, { key: alice.key });
      assert.equal(revisions.body.revisions[0].actor?.type, 'api_key');
    });

    it('MCP answers that hold a sheet carry its version (get_sheet_content, create_handover, get_latest_handover)', async () => {
      const client = await httpClient(s, alice.key);
      const id = ok(await client.callTool({ name: 'create_sheet', arguments: { title: 'mcp', content: { col1: '<p>a</p>' } } })).id;
      await put(id, { content: { col2: '<p>b</p>' } });
      assert.equal(ok(await client.callTool({ name: 'get_sheet_content', arguments: { id } })).version, 2);
      assert.equal(ok(await client.callTool({ name: 'get_sheet_content', arguments: { id, summary_only: true } })).version, 2);
      const session = ok(await client.callTool({ name: 'save_session', arguments: { title: 'w', summary: 's', project: 'mcpv' } }));
      const handover = ok(await client.callTool({ name: 'create_handover', arguments: { session_id: session.id } }));
      assert.equal(handover.sheet.version, 1);
      assert.equal(ok(await client.callTool({ name: 'get_latest_handover', arguments: { project: 'mcpv' } })).sheet.version, 1);
      await client.close();
    });

    it('If-Match (plain, W/, list, *) and expected_version guard PUT; a mismatch is 412 and changes nothing', async () => {
      const sheet = await create({ title: 'guarded', content: { col1: 'a' } });
      const ok = await put(sheet.id, { title: 'v2' }, { 'if-match': '"1"' });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.sheet.version, 2);
      assert.equal(ok.headers.get('etag'), '"2"');
      assertConflict(await put(sheet.id, { title: 'stale' }, { 'if-match': '"1"' }), 2);
      assertConflict(await put(sheet.id, { title: 'stale' }, { 'if-match': 'W/"1", "5"' }), 2);
      assertConflict(await put(sheet.id, { title: 'stale', expected_version: 1 }), 2);
      assertError(await put(sheet.id, { title: 'x', expected_version: 2 }, { 'if-match': '"3"' }), 400, 'invalid_request', /disagree/);
      assertError(await put(sheet.id, { title: 'x' }, { 'if-match': 'garbage' }), 400, 'invalid_request', /If-Match/);
      assertError(await put(sheet.id, { title: 'x', expected_version: 0 }), 400, 'invalid_request', /expected_version/);
      const unchanged = await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key });
      assert.equal(unchanged.body.sheet.title, 'v2');
      assert.equal(unchanged.body.sheet.version, 2);

      assert.equal((await put(sheet.id, { title: 'v3' }, { 'if-match': 'W/"2"' })).body.sheet.version, 3);
      assert.equal((await put(sheet.id, { title: 'v4', expected_version: 3 })).body.sheet.version, 4);
      assert.equal((await put(sheet.id, { title: 'v5' }, { 'if-match': '*' })).body.sheet.version, 5);
      assert.equal((await put(sheet.id, { title: 'v6' }, { 'if-match': '"1", "5"' })).body.sheet.version, 6);
      const noop = await put(sheet.id, { title: 'v6', content: { col1: 'a' } }, { 'if-match': '"6"' });
      assert.equal(noop.body.sheet.version, 6, 'a PUT that changes nothing keeps the version');
      assert.equal((await s.events('sheet.updated')).filter((e) => e.data.sheet_id === sheet.id).length, 5, 'and fires no event');
      // Only one of several writers that read the same version wins.
      const racing = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((t) => put(sheet.id, { title: t }, { 'if-match': '"6"' })));
      assert.deepEqual(racing.map((r) => r.status).sort(), [200, 412, 412, 412, 412]);
      for (const r of racing.filter((x) => x.status === 412)) assertConflict(r, 7);
    });

    it('DELETE honours If-Match; trash and restore each add a version', async () => {
      const sheet = await create({ title: 'trash' });
      assertConflict(await s.req('DELETE', `/v1/sheets/${sheet.id}`, { key: alice.key, headers: { 'if-match': '"2"' } }), 1);
      assert.equal((await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key })).body.sheet.trashedAt, null);
      const del = await s.req('DELETE', `/v1/sheets/${sheet.id}`, { key: alice.key, headers: { 'if-match': '"1"' } });
      assert.equal(del.status, 200);
      assert.equal((await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key })).body.sheet.version, 2);
      const restored = await s.req('POST', `/v1/sheets/${sheet.id}/restore`, { key: alice.key });
      assert.equal(restored.body.sheet.version, 3);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.equal((await s.req('POST', `/v1/sheets/${sheet.id}/restore`, { key: alice.key })).body.sheet.version, 3, 'restoring an active sheet changes nothing');
      assertConflict(await s.req('DELETE', `/v1/sheets/${sheet.id}?permanent=true`, { key: alice.key, headers: { 'if-match': '"2"' } }), 3);
      assert.equal((await s.req('DELETE', `/v1/sheets/${sheet.id}?permanent=true`, { key: alice.key, headers: { 'if-match': '"3"' } })).status, 200);
      assert.equal((await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key })).status, 404);
    });

    it('the OpenAPI document describes ETag, If-Match, If-None-Match, 304 and 412', async () => {
      const { paths } = (await s.req('GET', '/v1/openapi.json')).body;
      const get = paths['/sheets/{id}'].get;
      assert.ok(get.responses['200'].headers.ETag);
      assert.ok(get.responses['304']);
      assert.ok(get.parameters.some((p: any) => p.in === 'header' && p.name === 'if-none-match'));
      for (const [path, method] of [
        ['/sheets/{id}', 'put'],
        ['/sheets/{id}', 'delete'],
        ['/sheets/{id}/append', 'post'],
        ['/sheets/{id}/columns/{col}', 'delete'],
      ]) {
        const op = paths[path][method];
        assert.ok(
          op.parameters.some((p: any) => p.in === 'header' && p.name === 'if-match'),
          `${method} ${path} if-match`,
        );
        assert.match(JSON.stringify(op.responses['412']), /VersionConflict/, `${method} ${path} 412`);
      }
    });

    it('concurrent trash and PUTs of one sheet all apply, one version each', async () => {
      const sheet = await create({ title: 'mixed' });
      const ops = [...twenty.slice(0, 10).map((k) => () => put(sheet.id, { content: { [k]: k } })), () => s.req('DELETE', `/v1/sheets/${sheet.id}`, { key: alice.key })];
      const results = await Promise.all(ops.map((op) => op()));
      assert.ok(results.every((r) => r.status === 200));
      const got = (await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key })).body.sheet;
      assert.equal(Object.keys(got.content).length, 10);
      assert.equal(got.version, 12);
      assert.notEqual(got.trashedAt, null);
    });

    it('If-Match guards DELETE (W/"n", *) and restore too; a mismatch is 412 and changes nothing', async () => {
      const sheet = await create({ title: 'guarded' });
      const del = (h: string) => s.req('DELETE', `/v1/sheets/${sheet.id}`, { key: alice.key, headers: { 'if-match': h } });
      const restore = (h?: string) => s.req('POST', `/v1/sheets/${sheet.id}/restore`, { key: alice.key, headers: h ? { 'if-match': h } : {} });
      const stale = await del('W/"7"');
      assert.equal(stale.status, 412);
      assert.equal(stale.body.current_version, 1);
      assert.equal((await del('W/"1"')).status, 200, 'a weak tag of the current version matches');
      const early = await restore('"1"');
      assert.equal(early.status, 412, 'restore against the version before the trash');
      assert.equal(early.body.current_version, 2);
      assert.notEqual((await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key })).body.sheet.trashedAt, null, 'still in the trash');
      const back = await restore('"2"');
      assert.equal(back.status, 200);
      assert.equal(back.headers.get('etag'), '"3"');
      assert.equal((await del('*')).status, 200, '* matches any version');
      assert.equal((await restore()).status, 200, 'without If-Match the restore is unconditional');
    });

    it('concurrent restore and PUTs of a trashed sheet all apply, one version each', async () => {
      const sheet = await create({ title: 'restore race' });
      assert.equal((await s.req('DELETE', `/v1/sheets/${sheet.id}`, { key: alice.key })).status, 200);
      const ops = [
        ...twenty.slice(0, 10).map((k) => () => put(sheet.id, { content: { [k]: k } })),
        () => s.req('POST', `/v1/sheets/${sheet.id}/restore`, { key: alice.key }),
        ...twenty.slice(10, 15).map((k) => () => put(sheet.id, { content: { [k]: k } })),
      ];
      const results = await Promise.all(ops.map((op) => op()));
      assert.ok(
        results.every((r) => r.status === 200),
        JSON.stringify(results.find((r) => r.status !== 200)?.body),
      );
      const got = (await s.req('GET', `/v1/sheets/${sheet.id}`, { key: alice.key })).body.sheet;
      assert.deepEqual(Object.keys(got.content).sort(), twenty.slice(0, 15).sort());
      assert.equal(got.trashedAt, null);
      // created 1, trashed 2, then 15 PUTs and the restore: one version each.
      assert.equal(got.version, 18);
      const revisions = (await s.req('GET', `/v1/sheets/${sheet.id}/revisions?limit=100`, { key: alice.key })).body;
      assert.equal(revisions.total, 17);
      assert.deepEqual(
        revisions.revisions.map((r: { version: number }) => r.version),
        Array.from({ length: 17 }, (_, i) => 17 - i),
      );
    });
  });
}

const pgUrl = process.env.TEST_POSTGRES_URL;
describe('two server processes on PostgreSQL racing PUTs', { skip: pgUrl ? false : 'needs TEST_POSTGRES_URL' }, () => {
  let pair: Awaited<ReturnType<typeof startTwoPgProcesses>>;
  let admin: Container;
  let procs: ServerProcess[] = [];
  before(async () => {
    pair = await startTwoPgProcesses();
    ({ admin, procs } = pair);
  });
  after(() => pair?.stop());

  it('20 PUTs of different columns spread over both processes keep 20 of 20 columns, version 21', async () => {
    const u = await admin.accounts.create({ name: `u-${randomBytes(3).toString('hex')}`, plan: 'business' });
    const created = await procs[0].req('POST', '/v1/sheets', { key: u.api_key, body: { title: 'two processes' } });
    const id = created.body.id;
    const results = await Promise.all(twenty.map((k, i) => procs[i % 2].req('PUT', `/v1/sheets/${id}`, { key: u.api_key, body: { content: { [k]: k } } })));
    assert.ok(
      results.every((r) => r.status === 200),
      JSON.stringify(results.find((r) => r.status !== 200)?.body),
    );
    const got = await procs[1].req('GET', `/v1/sheets/${id}`, { key: u.api_key });
    assert.deepEqual(Object.keys(got.body.sheet.content).sort(), [...twenty].sort());
    assert.equal(got.body.sheet.version, 21);
    const appends = await Promise.all(twenty.map((k, i) => procs[i % 2].req('POST', `/v1/sheets/${id}/append`, { key: u.api_key, body: { column: 'col1', html: `[${k}]` } })));
    assert.ok(appends.every((r) => r.status === 200));
    const after = (await procs[0].req('GET', `/v1/sheets/${id}`, { key: u.api_key })).body.sheet;
    for (const k of twenty) assert.ok(after.content.col1.includes(`[${k}]`), `append ${k} kept`);
    assert.equal(after.version, 41);
  });
});
