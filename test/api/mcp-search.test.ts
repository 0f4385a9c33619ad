import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, toolError, withinBudget } from '../mcp-helpers.js';

/**
 * Issue 55: the MCP tool `search` takes GET /v1/search's arguments and gives the same results, plus one
 * line per hit with its kind and id, within the result budget; scopes and workspaces as REST.
 */
for (const dialect of dialects()) {
  describe(`MCP search [${dialect}]`, () => {
    const budget = 5000;
    const { s, users } = useServer(dialect, { users: { alice: 'pro', bob: 'pro' }, env: { MCP_RESULT_MAX_CHARS: String(budget) } });
    const { alice, bob } = users;
    let sessionId = '';
    let solutionId = '';

    before(async () => {
      const ses = await s.req('POST', '/v1/sessions', {
        key: alice.key,
        body: { title: 'Migrated auth middleware from jsonwebtoken to jose', summary: 'jwtVerify from jose in src/auth/middleware.ts', project: 'api' },
      });
      sessionId = ses.body.session.id;
      const sol = await s.req('POST', '/v1/knowledge?type=solutions', {
        key: alice.key,
        body: { title: 'Token expired in tests', error: 'JWTExpired: "exp" claim timestamp check failed', content: 'Freeze the clock.' },
      });
      solutionId = sol.body.solution.id;
      for (let i = 0; i < 30; i++) {
        await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: `Auth note ${i}`, summary: `auth ${'padding words '.repeat(40)} ${i}` } });
      }
    });

    it('gives the REST results, one line per hit with kind and id, a moment after the write', async () => {
      const client = await httpClient(s, alice.key);
      try {
        const args = { q: 'why did we switch to jose', types: 'session,solution', limit: 3 };
        const r = ok(await client.callTool({ name: 'search', arguments: args }));
        const rest = await s.req('GET', `/v1/search?q=${encodeURIComponent(args.q)}&types=session,solution&limit=3`, { key: alice.key });
        assert.equal(rest.status, 200);
        assert.deepEqual(r.results, rest.body.results);
        assert.equal(r.total, rest.body.total);
        assert.equal(r.results[0].id, sessionId);
        assert.equal(r.lines.length, r.results.length);
        assert.match(r.lines[0], new RegExp(`^1\\. \\[session ${sessionId}\\] Migrated auth middleware`));
        // types as a list, prefer_project, offset.
        const listed = ok(await client.callTool({ name: 'search', arguments: { q: 'JWTExpired exp claim', types: ['solution'], prefer_project: 'api', offset: 0 } }));
        assert.deepEqual(
          listed.results.map((x: any) => x.id),
          [solutionId],
        );
        const fresh = await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: 'Pelican cache warmup', summary: 'warm the pelican cache' } });
        const found = ok(await client.callTool({ name: 'search', arguments: { q: 'pelican' } }));
        assert.deepEqual(
          found.results.map((x: any) => x.id),
          [fresh.body.session.id],
        );
      } finally {
        await client.close();
      }
    });

    it('stays within the result budget, cutting hits from the end', async () => {
      const client = await httpClient(s, alice.key);
      try {
        const r = await client.callTool({ name: 'search', arguments: { q: 'auth padding words', limit: 50 } });
        withinBudget(budget, 'search', r);
        const body = ok(r);
        assert.ok(body.total >= 30);
        assert.ok(body.results.length < 50);
        assert.match(body.truncated, /results|lines/);
      } finally {
        await client.close();
      }
    });

    it('refuses bad arguments naming them, and kinds the credential may not read', async () => {
      const client = await httpClient(s, alice.key);
      try {
        assert.match(toolError(await client.callTool({ name: 'search', arguments: {} }), 400, 'invalid_request').error, /\bq\b/);
        assert.match(toolError(await client.callTool({ name: 'search', arguments: { q: ' ' } }), 400, 'invalid_request').error, /\bq\b/);
        assert.match(toolError(await client.callTool({ name: 'search', arguments: { q: 'x', types: 'notes' } }), 400, 'invalid_request').error, /types/);
        assert.match(toolError(await client.callTool({ name: 'search', arguments: { q: 'x', limit: 51 } }), 400, 'invalid_request').error, /limit/);
        assert.match(toolError(await client.callTool({ name: 'search', arguments: { q: 'x', limit: '5' } }), 400, 'invalid_request').error, /limit/);
        assert.match(toolError(await client.callTool({ name: 'search', arguments: { q: 'x', offset: -1 } }), 400, 'invalid_request').error, /offset/);
        assert.match(toolError(await client.callTool({ name: 'search', arguments: { q: 'x', workspace_id: 'x' } }), 400, 'invalid_request').error, /workspace_id/);
      } finally {
        await client.close();
      }
      const scoped = (await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'k', scopes: ['knowledge:read'] } })).body.api_key;
      const narrow = await httpClient(s, scoped);
      try {
        const tools = (await narrow.listTools()).tools.map((t) => t.name);
        assert.ok(tools.includes('search'));
        const r = ok(await narrow.callTool({ name: 'search', arguments: { q: 'jose jwt token auth' } }));
        assert.ok(r.results.length > 0 && r.results.every((x: any) => x.type === 'solution'));
        const refused = (await narrow.callTool({ name: 'search', arguments: { q: 'jose', types: 'session' } })) as { isError?: boolean; content: { text: string }[] };
        assert.equal(refused.isError, true);
        const body = JSON.parse(refused.content[0].text);
        assert.deepEqual([body.status, body.code, body.required_scope], [403, 'insufficient_scope', 'sessions:read']);
      } finally {
        await narrow.close();
      }
      const stats = (await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 's', scopes: ['stats:read'] } })).body.api_key;
      const none = await httpClient(s, stats);
      try {
        assert.ok(!(await none.listTools()).tools.some((t) => t.name === 'search'));
      } finally {
        await none.close();
      }
      // Another account finds none of Alice's records.
      const other = await httpClient(s, bob.key);
      try {
        assert.deepEqual(ok(await other.callTool({ name: 'search', arguments: { q: 'jose' } })).results, []);
      } finally {
        await other.close();
      }
    });
  });
}
