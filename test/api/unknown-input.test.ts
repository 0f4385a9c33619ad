import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { closest } from '../../src/lib/unknown-keys.js';
import { undeclaredKey } from '../fuzz-helpers.js';

const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

// Issue 36.1: a field or parameter the API does not know is a 400 naming it, never silently dropped.
for (const dialect of dialects()) {
  describe(`unknown input is refused [${dialect}]`, () => {
    let key: string;
    let mcp: Client;
    const { s, beforeClose } = useServer(dialect);
    before(async () => {
      ({ key } = await s.user('pro'));
      mcp = await httpClient(s, key);
    });
    beforeClose(() => mcp.close());

    test('a misspelt body field names it and the field meant, and stores nothing', async () => {
      const res = await s.req('POST', '/v1/sheets', { key, body: { title: 't', contents: { col1: '<p>x</p>' } } });
      assertError(res, 400, 'invalid_request', literally("unknown field 'contents' (did you mean 'content'?)"));
      const list = await s.req('GET', '/v1/sheets', { key });
      assert.equal(list.body.total, 0);
    });

    test('a misspelt nested field names its path', async () => {
      const res = await s.req('POST', '/v1/todos', {
        key,
        body: {
          project: 'p',
          todos: [
            { content: 'a', status: 'pending' },
            { content: 'b', stauts: 'pending', status: 'pending' },
          ],
        },
      });
      assertError(res, 400, 'invalid_request', literally("unknown field 'todos.1.stauts' (did you mean 'status'?)"));
      assert.equal((await s.req('GET', '/v1/todos', { key })).body.todos.length, 0);
    });

    test('an expiry under the wrong name does not make a key that never expires', async () => {
      const res = await s.req('POST', '/v1/api-keys', { key, body: { name: 'ci', scopes: ['sheets:read'], expires_in_days: 7 } });
      assertError(res, 400, 'invalid_request', literally("unknown field 'expires_in_days'"));
      assert.match(res.body.error, /did you mean 'expires_at'\?/);
    });

    test('an unknown query parameter is refused with the parameter meant', async () => {
      await s.req('POST', '/v1/knowledge?type=solutions', { key, body: { title: 'lock', error: 'database is locked', content: 'use WAL' } });
      const res = await s.req('GET', `/v1/knowledge?query=${encodeURIComponent('database is locked')}`, { key });
      assertError(res, 400, 'invalid_request', literally("unknown query parameter 'query' (did you mean 'q'?)"));
    });

    test('column keys inside content stay free-form, and known fields still work', async () => {
      const res = await s.req('POST', '/v1/sheets', { key, body: { title: 't', content: { col1: '<p>a</p>', col2: '<p>b</p>' } } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const got = await s.req('GET', `/v1/sheets?q=a&limit=5`, { key });
      assert.equal(got.status, 200);
    });

    test('fuzz: any undeclared key, top-level or nested, is named and nothing is stored', async () => {
      const known = new Set(['title', 'content', 'folder', 'tags', 'expected_version', 'idempotency_key', 'todos', 'project', 'id', 'status', 'priority', 'activeForm', 'content']);
      const name = undeclaredKey(known);
      await fc.assert(
        fc.asyncProperty(name, fc.jsonValue({ depthSize: 'small', stringUnit: 'grapheme-ascii' }), fc.boolean(), async (k, v, nested) => {
          const res = nested
            ? await s.req('POST', '/v1/todos', { key, body: { project: 'fuzz', todos: [{ content: 'x', status: 'pending', [k]: v }] } })
            : await s.req('POST', '/v1/sheets', { key, body: { title: 'fuzz', [k]: v } });
          assert.equal(res.status, 400, JSON.stringify(res.body));
          assert.equal(res.body.code, 'invalid_request');
          assert.ok(res.body.error.includes(`'${nested ? `todos.0.${k}` : k}'`), res.body.error);
        }),
        { numRuns: 40 },
      );
      assert.equal((await s.req('GET', '/v1/todos?project=fuzz', { key })).body.todos.length, 0);
      assert.equal((await s.req('GET', '/v1/sheets?q=fuzz', { key })).body.total, 0);
    });

    test('fuzz: any undeclared MCP argument is named and nothing is stored', async () => {
      const declared = new Set(['title', 'content', 'folder', 'tags', 'idempotency_key']);
      const name = undeclaredKey(declared);
      await fc.assert(
        fc.asyncProperty(name, fc.jsonValue({ depthSize: 'small', stringUnit: 'grapheme-ascii' }), async (k, v) => {
          const r = await mcp.callTool({ name: 'create_sheet', arguments: { title: 'mcp-fuzz', [k]: v } });
          assert.ok(toolError(r, 400, 'invalid_request').error.includes(`unknown argument '${k}'`));
        }),
        { numRuns: 30 },
      );
      assert.equal((await s.req('GET', '/v1/sheets?q=mcp-fuzz', { key })).body.total, 0);
    });

    test('MCP tools refuse unknown arguments the same way', async () => {
      const r = await mcp.callTool({ name: 'search_knowledge', arguments: { query: 'database is locked' } });
      assert.match(toolError(r, 400, 'invalid_request').error, /unknown argument 'query' \(did you mean 'q'\?\)/);
      const c = await mcp.callTool({ name: 'create_sheet', arguments: { title: 'x', contents: { col1: 'a' } } });
      assert.match(toolError(c, 400, 'invalid_request').error, /unknown argument 'contents' \(did you mean 'content'\?\)/);
      // idempotency_key is a known argument of creating tools.
      ok(await mcp.callTool({ name: 'create_sheet', arguments: { title: 'x', idempotency_key: 'k-1' } }));
    });
  });
}

test('closest: typos, abbreviations, and nothing when nothing is near', () => {
  assert.equal(closest('contents', ['title', 'content', 'tags']), 'content');
  assert.equal(closest('query', ['q', 'type', 'limit']), 'q');
  assert.equal(closest('expires_in_days', ['name', 'scopes', 'expires_at']), 'expires_at');
  assert.equal(closest('zzz', ['title', 'content']), undefined);
});
