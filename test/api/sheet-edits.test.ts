import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, assertIdRouteSecurity, dialects, type Res } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok } from '../mcp-helpers.js';

function assertCode(res: Res, status: number, code: string, extra: Record<string, unknown> = {}) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code);
  for (const [k, v] of Object.entries(extra)) assert.equal(res.body[k], v, k);
}

for (const dialect of dialects()) {
  describe(`sheet edits without a read [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' }, users: { alice: 'business' } });

    const req = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => s.req(method, `/v1${url}`, { key: alice.key, body, headers });
    const create = async (content: Record<string, string> = {}) => (await req('POST', '/sheets', { title: 'edit', content })).body.id as string;
    const updates = async (id: string) => (await s.events('sheet.updated')).filter((e) => e.data.sheet_id === id).map((e) => e.data);

    it('append: default column is the highest-numbered (col1 when empty), a named one is created, separator only between texts', async () => {
      const id = await create();
      const first = await req('POST', `/sheets/${id}/append`, { html: '<p>a</p>', separator: '<hr>' });
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.sheet.content, { col1: '<p>a</p>' });
      assert.equal(first.headers.get('etag'), '"2"');
      await req('PUT', `/sheets/${id}`, { content: { col2: 'x', col10: 'y' } });
      const second = await req('POST', `/sheets/${id}/append`, { html: 'z', separator: '|' });
      assert.equal(second.body.sheet.content.col10, 'y|z', 'col10 is higher than col2');
      const named = await req('POST', `/sheets/${id}/append`, { column: 'col5', html: 'new' });
      assert.equal(named.body.sheet.content.col5, 'new');
      assert.equal(named.body.sheet.version, 5);
      assert.deepEqual(
        (await updates(id)).map((e) => e.columns),
        [['col1'], ['col2', 'col10'], ['col10'], ['col5']],
      );
      assertError(await req('POST', `/sheets/${id}/append`, { html: '' }), 400, 'invalid_request', /html/);
      assertError(await req('POST', `/sheets/${id}/append`, { column: 'colX', html: 'a' }), 400, 'invalid_request', /column/);
    });

    it('50 concurrent appends lose nothing', async () => {
      const id = await create({ col1: 'start' });
      const parts = Array.from({ length: 50 }, (_, i) => `[${i}]`);
      const results = await Promise.all(parts.map((html) => req('POST', `/sheets/${id}/append`, { column: 'col1', html })));
      assert.ok(results.every((r) => r.status === 200));
      const sheet = (await req('GET', `/sheets/${id}`)).body.sheet;
      for (const p of parts) assert.equal(sheet.content.col1.split(p).length, 2, `${p} appended exactly once`);
      assert.equal(sheet.version, 51);
    });

    it('replace: exactly one occurrence unless all; no_match, ambiguous_match with count; column scope', async () => {
      const id = await create({ col1: '<p>cat and cat</p>', col2: '<p>dog $& cat</p>' });
      assertCode(await req('POST', `/sheets/${id}/replace`, { find: 'bird', replace: 'x' }), 409, 'no_match');
      const amb = await req('POST', `/sheets/${id}/replace`, { find: 'cat', replace: 'x' });
      assertCode(amb, 409, 'ambiguous_match', { count: 3 });
      assertCode(await req('POST', `/sheets/${id}/replace`, { column: 'col1', find: 'cat', replace: 'x' }), 409, 'ambiguous_match', { count: 2 });
      const one = await req('POST', `/sheets/${id}/replace`, { column: 'col2', find: 'cat', replace: 'cow' });
      assert.equal(one.status, 200);
      assert.equal(one.body.replaced, 1);
      assert.deepEqual(one.body.sheet.content, { col1: '<p>cat and cat</p>', col2: '<p>dog $& cow</p>' });
      const dollar = await req('POST', `/sheets/${id}/replace`, { find: 'dog', replace: '$&$&' });
      assert.equal(dollar.body.sheet.content.col2, '<p>$&$& $& cow</p>', 'replacement text is literal');
      const all = await req('POST', `/sheets/${id}/replace`, { find: 'cat', replace: 'lion', all: true });
      assert.equal(all.body.replaced, 2);
      assert.equal(all.body.sheet.content.col1, '<p>lion and lion</p>');
      assert.deepEqual(
        (await updates(id)).map((e) => e.columns),
        [['col2'], ['col2'], ['col1']],
      );
      const none = await req('POST', `/sheets/${id}/replace`, { find: 'zebra', replace: 'x', all: true });
      assert.deepEqual([none.status, none.body.replaced, none.body.sheet.version], [200, 0, 4]);
      assertCode(await req('POST', `/sheets/${id}/replace`, { column: 'col9', find: 'lion', replace: 'x' }), 409, 'no_match');
      assertError(await req('POST', `/sheets/${id}/replace`, { find: '', replace: 'x' }), 400, 'invalid_request', /find/);
    });

    it('columns: POST adds the lowest unused key; DELETE removes one, 404 when absent', async () => {
      const id = await create({ col1: 'a', col3: 'c' });
      const added = await req('POST', `/sheets/${id}/columns`, {});
      assert.equal(added.status, 200);
      assert.equal(added.body.column, 'col2');
      assert.equal(added.body.sheet.content.col2, '');
      assert.equal(added.headers.get('etag'), '"2"');
      const next = await req('POST', `/sheets/${id}/columns`, { html: '<p>four</p>' });
      assert.deepEqual([next.body.column, next.body.sheet.content.col4], ['col4', '<p>four</p>']);
      const removed = await req('DELETE', `/sheets/${id}/columns/col1`);
      assert.equal(removed.status, 200);
      assert.deepEqual(Object.keys(removed.body.sheet.content).sort(), ['col2', 'col3', 'col4']);
      assert.equal(removed.body.sheet.version, 4);
      assertError(await req('DELETE', `/sheets/${id}/columns/col1`), 404, 'not_found', /col1/);
      assertError(await req('DELETE', `/sheets/${id}/columns/bad`), 400, 'invalid_request', /col/);
      assert.deepEqual(
        (await updates(id)).map((e) => [e.changes, e.columns]),
        [
          [['content'], ['col2']],
          [['content'], ['col4']],
          [['content'], ['col1']],
        ],
      );
      assert.equal((await req('POST', `/sheets/${id}/columns`, {})).body.column, 'col1');
    });

    it('every edit honours If-Match and expected_version: 412 with current_version, nothing changes', async () => {
      const id = await create({ col1: 'a b' });
      const stale = { 'if-match': '"7"' };
      for (const [method, url, body] of [
        ['POST', `/sheets/${id}/append`, { html: 'x' }],
        ['POST', `/sheets/${id}/replace`, { find: 'a', replace: 'x' }],
        ['POST', `/sheets/${id}/columns`, {}],
        ['DELETE', `/sheets/${id}/columns/col1`, undefined],
      ] as const) {
        assertCode(await req(method, url, body, stale), 412, 'version_conflict', { current_version: 1 });
        if (body) assertCode(await req(method, url, { ...body, expected_version: 3 }), 412, 'version_conflict', { current_version: 1 });
      }
      const sheet = (await req('GET', `/sheets/${id}`)).body.sheet;
      assert.deepEqual([sheet.version, sheet.content], [1, { col1: 'a b' }]);
      assert.equal((await req('POST', `/sheets/${id}/append`, { html: '!', expected_version: 1 })).body.sheet.version, 2);
      assert.equal((await req('POST', `/sheets/${id}/replace`, { find: 'b', replace: 'c' }, { 'if-match': 'W/"2"' })).body.sheet.version, 3);
      assert.equal((await updates(id)).length, 2);
    });

    it('401/403/404 on the edit routes', async () => {
      const id = await create({ col1: 'a' });
      for (const route of [
        { method: 'POST', path: (x: string) => `/v1/sheets/${x}/append`, body: { html: 'x' } },
        { method: 'POST', path: (x: string) => `/v1/sheets/${x}/replace`, body: { find: 'a', replace: 'b' } },
        { method: 'POST', path: (x: string) => `/v1/sheets/${x}/columns`, body: {} },
        { method: 'DELETE', path: (x: string) => `/v1/sheets/${x}/columns/col1` },
      ]) {
        await assertIdRouteSecurity(s, route, alice, id, 'sht_missing');
      }
      assert.deepEqual((await req('GET', `/sheets/${id}`)).body.sheet.content, { col1: 'a' });
    });

    it('MCP: append_to_sheet, replace_in_sheet, add_column, remove_column', async () => {
      const client = await httpClient(s, alice.key);
      const id = ok(await client.callTool({ name: 'create_sheet', arguments: { title: 'mcp edits', content: { col1: 'hello' } } })).id;
      const appended = ok(await client.callTool({ name: 'append_to_sheet', arguments: { id, html: ' world', expected_version: 1 } }));
      assert.equal(appended.sheet.content.col1, 'hello world');
      const replaced = ok(await client.callTool({ name: 'replace_in_sheet', arguments: { id, find: 'world', replace: 'there' } }));
      assert.deepEqual([replaced.replaced, replaced.sheet.content.col1], [1, 'hello there']);
      const amb = await client.callTool({ name: 'replace_in_sheet', arguments: { id, find: 'e', replace: 'E' } });
      assert.equal(amb.isError, true);
      const err = JSON.parse((amb.content as any)[0].text);
      assert.deepEqual([err.code, err.status, err.count], ['ambiguous_match', 409, 3]);
      const col = ok(await client.callTool({ name: 'add_column', arguments: { id, html: 'two' } }));
      assert.equal(col.column, 'col2');
      const removed = ok(await client.callTool({ name: 'remove_column', arguments: { id, col: 'col1' } }));
      assert.deepEqual([removed.sheet.content, removed.sheet.version], [{ col2: 'two' }, 5]);
      const conflict = await client.callTool({ name: 'remove_column', arguments: { id, col: 'col2', expected_version: 4 } });
      assert.equal(JSON.parse((conflict.content as any)[0].text).current_version, 5);
      await client.close();
    });
  });
}
