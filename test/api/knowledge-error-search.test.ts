import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok } from '../mcp-helpers.js';
import { errorSearchTerms } from '../../src/modules/search/substring/error-terms.js';

// Issue 36.3: a pasted error message, with its codes and paths, finds the solution saved under its key words.
const PASTED = 'SqliteError: database is locked (code SQLITE_BUSY) at Database.prepare (/app/node_modules/better-sqlite3/lib/methods/wrappers.js:5:21)';

for (const dialect of dialects()) {
  describe(`knowledge search forgives a pasted error message [${dialect}]`, () => {
    let key: string;
    let mcp: Client;
    const ids: Record<string, string> = {};
    const { s, beforeClose } = useServer(dialect);
    before(async () => {
      ({ key } = await s.user('pro'));
      mcp = await httpClient(s, key);
      const save = async (name: string, body: object) => {
        const res = await s.req('POST', '/v1/knowledge?type=solutions', { key, body });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        ids[name] = res.body.id;
      };
      await save('locked', { title: 'SQLite lock', error: 'database is locked', content: 'Enable WAL and set busy_timeout.' });
      await save('exact', { title: 'SQLITE_BUSY in prepare', error: 'SqliteError: database is locked (code SQLITE_BUSY)', content: 'Close the other connection.' });
      await save('unrelated', { title: 'Port in use', error: 'EADDRINUSE: address already in use', content: 'Stop the other server.' });
      await save('one-word', { title: 'Database URL', error: 'missing database url', content: 'Set DATABASE_URL.' });
    });
    beforeClose(() => mcp.close());

    it('ranks by matched words: the fullest match first, a partial match next, one shared word not at all', async () => {
      const res = await s.req('GET', `/v1/knowledge?type=solutions&q=${encodeURIComponent(PASTED)}`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.solutions.map((x: { id: string }) => x.id),
        [ids.exact, ids.locked],
      );
    });

    it('a short query still needs all of its words', async () => {
      const res = await s.req('GET', `/v1/knowledge?type=solutions&q=${encodeURIComponent('database locked')}`, { key });
      assert.deepEqual(res.body.solutions.map((x: { id: string }) => x.id).sort(), [ids.exact, ids.locked].sort());
      const none = await s.req('GET', `/v1/knowledge?type=solutions&q=${encodeURIComponent('database refused')}`, { key });
      assert.deepEqual(none.body.solutions, []);
    });

    it('the MCP tool finds it the same way and reports the same total', async () => {
      const r = ok(await mcp.callTool({ name: 'search_knowledge', arguments: { q: PASTED, type: 'solutions' } }));
      assert.deepEqual(
        r.solutions.map((x: { id: string }) => x.id),
        [ids.exact, ids.locked],
      );
      assert.equal(r.solutions_page.total, 2);
    });
  });
}

describe('errorSearchTerms', () => {
  it('keeps the words, drops punctuation, numbers and stop words', () => {
    const { terms, minMatches } = errorSearchTerms('Error: the file is locked (code 5)');
    assert.deepEqual(terms, ['error', 'file', 'locked', 'code']);
    assert.equal(minMatches, 2);
  });
  it('CJK words count, and a single word must match', () => {
    assert.deepEqual(errorSearchTerms('移行'), { terms: ['移行'], minMatches: 1 });
  });
  it('a query of punctuation alone is matched as typed', () => {
    assert.deepEqual(errorSearchTerms('::'), { terms: ['::'], minMatches: 1 });
  });
});
