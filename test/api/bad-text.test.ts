import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { describeBadText, findBadText } from '../../src/lib/bad-text.js';

/**
 * Issue 16, point 10: NUL and lone surrogates are a 400 naming the field (REST) or an invalid_request
 * tool error (MCP), on both databases; every other valid Unicode round-trips exactly.
 */
const NUL = 'a\u0000b';
const LONE_HIGH = 'x\ud800y';
const LONE_LOW = '\udc00';
/** RTL override, ZWJ family emoji, astral CJK, combining marks, BOM, line and paragraph separators. */
const EXOTIC = 'abc\u202Eevil\u202C 👨‍👩‍👧‍👦 𠀋𡈽𪚲 e\u0301\u0328 \uFEFFbom \u2028line\u2029para 😀';

describe('findBadText', () => {
  it('finds the first NUL or lone surrogate with its path, in values and keys', () => {
    assert.equal(findBadText({ a: EXOTIC, b: [EXOTIC, { c: '😀' }] }), undefined);
    assert.deepEqual(findBadText({ a: 'ok', b: [1, { c: NUL }] }), { path: 'b.1.c', problem: 'a NUL character (U+0000)', inKey: false });
    assert.deepEqual(findBadText({ t: LONE_HIGH, u: NUL }), { path: 't', problem: 'a lone surrogate (U+D800)', inKey: false });
    assert.deepEqual(findBadText([LONE_LOW]), { path: '0', problem: 'a lone surrogate (U+DC00)', inKey: false });
    assert.equal(findBadText({ content: { [NUL]: 'x' } })!.inKey, true);
    assert.match(describeBadText(findBadText({ content: { [NUL]: 'x' } })!), /field 'content' has a key that contains a NUL/);
    let deep: unknown = NUL;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(findBadText(deep)!.path.split('.').length, 100_000, 'no stack overflow on deep nesting');
  });
});

for (const dialect of dialects()) {
  describe(`bad text [${dialect}]`, () => {
    let mcp: Client;
    const {
      s,
      users: { alice },
      beforeClose,
    } = useServer(dialect, { users: { alice: 'business' } });
    before(async () => {
      mcp = await httpClient(s, alice.key);
    });
    beforeClose(() => mcp?.close());

    const post = (path: string, body: unknown) => s.req('POST', path, { key: alice.key, body });
    const refused = (res: Awaited<ReturnType<typeof post>>, field: string, what = /NUL character \(U\+0000\)|lone surrogate/) => {
      assertError(res, 400, 'invalid_request', new RegExp(`'${field.replaceAll('.', '\\.')}' contains`));
      assert.match(res.body.error, what);
    };

    it('REST writes: NUL and lone surrogates are a 400 naming the field, nothing is stored', async () => {
      refused(await post('/v1/sheets', { title: NUL }), 'title', /NUL/);
      refused(await post('/v1/sheets', { title: 't', content: { col1: LONE_HIGH } }), 'content.col1', /lone surrogate \(U\+D800\)/);
      refused(await post('/v1/sheets', { title: 't', tags: ['ok', LONE_LOW] }), 'tags.1', /U\+DC00/);
      refused(await post('/v1/knowledge?type=solutions', { title: 't', error: NUL, content: 'c' }), 'error');
      refused(await post('/v1/knowledge?type=snippets', { title: 't', content: LONE_HIGH, language: 'ts' }), 'content');
      refused(
        await post('/v1/todos', {
          project: 'p',
          todos: [
            { content: 'fine', status: 'pending' },
            { content: NUL, status: 'pending' },
          ],
        }),
        'todos.1.content',
      );
      refused(await post('/v1/sessions', { title: 't', summary: NUL }), 'summary');
      refused(await post('/v1/sessions', { title: 't', summary: 's', files_changed: [LONE_HIGH] }), 'files_changed.0');
      const created = await post('/v1/sheets', { title: 'fine' });
      const res = await s.req('PUT', `/v1/sheets/${created.body.id}`, { key: alice.key, body: { title: NUL } });
      refused(res, 'title');
      assert.equal((await s.req('GET', '/v1/sheets', { key: alice.key })).body.total, 1, 'only the good sheet exists');
    });

    it('REST: an unknown field, the query string and path parameters are checked too', async () => {
      refused(await post('/v1/sheets', { title: 't', extra: NUL }), 'extra');
      const q = await s.req('GET', '/v1/sheets?folder=a%00b', { key: alice.key });
      assertError(q, 400, 'invalid_request', /query parameter 'folder' contains a NUL/);
      const p = await s.req('GET', '/v1/sheets/sh_%00', { key: alice.key });
      assertError(p, 400, 'invalid_request', /path parameter 'id' contains a NUL/);
      const key = await post('/v1/sheets', { title: 't', content: { [NUL]: 'x' } });
      assertError(key, 400, 'invalid_request', /field 'content' has a key that contains a NUL/);
      assertError(await s.req('POST', '/v1/sheets', { body: { title: NUL } }), 401, 'unauthorized');
    });

    it('REST: every other valid Unicode round-trips exactly', async () => {
      const sheet = await post('/v1/sheets', { title: EXOTIC, content: { col1: EXOTIC }, folder: EXOTIC, tags: [EXOTIC] });
      assert.equal(sheet.status, 200, JSON.stringify(sheet.body));
      const got = (await s.req('GET', `/v1/sheets/${sheet.body.id}`, { key: alice.key })).body.sheet;
      assert.equal(got.title, EXOTIC);
      assert.deepEqual(got.content, { col1: EXOTIC });
      assert.equal(got.folder, EXOTIC);
      assert.deepEqual(got.tags, [EXOTIC]);

      const k = await post('/v1/knowledge?type=solutions', { title: EXOTIC, error: EXOTIC, content: EXOTIC });
      assert.equal(k.status, 200, JSON.stringify(k.body));
      const kGot = (await s.req('GET', `/v1/knowledge/${k.body.id}`, { key: alice.key })).body;
      assert.equal(JSON.stringify(kGot).split(EXOTIC).length - 1 >= 3, true, 'title, error and content kept exactly');

      // Todo content is stored trimmed, and trim() counts BOM and U+2028 as white space: keep them inside.
      const todo = await post('/v1/todos', { project: EXOTIC, todos: [{ content: `x${EXOTIC}x`, status: 'pending' }] });
      assert.equal(todo.status, 200, JSON.stringify(todo.body));
      assert.equal(todo.body.todos[0].content, `x${EXOTIC}x`);
      const listed = await s.req('GET', `/v1/todos?project=${encodeURIComponent(EXOTIC)}`, { key: alice.key });
      assert.deepEqual(
        listed.body.todos.map((t: { content: string }) => t.content),
        [`x${EXOTIC}x`],
      );

      const ses = await post('/v1/sessions', { title: EXOTIC, summary: EXOTIC, project: EXOTIC, tags: [EXOTIC], files_changed: [EXOTIC] });
      assert.equal(ses.status, 200, JSON.stringify(ses.body));
      const sGot = (await s.req('GET', `/v1/sessions/${ses.body.id}`, { key: alice.key })).body.session;
      assert.deepEqual([sGot.title, sGot.summary, sGot.project, sGot.tags, sGot.files_changed], [EXOTIC, EXOTIC, EXOTIC, [EXOTIC], [EXOTIC]]);
    });

    it('MCP: the same refusal as a tool error naming the argument, and the same round trip', async () => {
      const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
      assert.match(toolError(await call('create_sheet', { title: NUL }), 400, 'invalid_request').error, /field 'title' contains a NUL/);
      assert.match(toolError(await call('create_sheet', { title: 't', content: { col1: LONE_HIGH } }), 400, 'invalid_request').error, /'content\.col1' contains a lone surrogate/);
      assert.match(toolError(await call('save_session', { title: 't', summary: NUL }), 400, 'invalid_request').error, /'summary'/);
      assert.match(toolError(await call('sync_todos', { project: 'p', todos: [{ content: LONE_LOW, status: 'pending' }] }), 400, 'invalid_request').error, /'todos\.0\.content'/);
      assert.match(toolError(await call('save_knowledge', { type: 'solutions', title: NUL, content: 'c' }), 400, 'invalid_request').error, /'title'/);

      const made = ok(await call('create_sheet', { title: EXOTIC, content: { col1: EXOTIC } }));
      const got = ok(await call('get_sheet', { id: made.id }));
      assert.equal(got.sheet.title, EXOTIC);
      assert.equal(got.sheet.content.col1, EXOTIC);
    });
  });
}
