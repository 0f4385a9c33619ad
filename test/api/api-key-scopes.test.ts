import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { manualClock } from '../../src/clock.js';
import { assertError, dialects, type Res } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { SCOPES } from '../../src/auth/scopes.js';
import { dbEnv, httpClient, stdioClient } from '../mcp-helpers.js';

function assertScopeError(res: Res, required: string) {
  assert.equal(res.status, 403, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error', 'required_scope', 'success']);
  assert.equal(res.body.code, 'insufficient_scope');
  assert.equal(res.body.required_scope, required);
  assert.match(res.body.error, new RegExp(required.replace('*', '\\*')));
}

function toolScopeError(r: unknown, required: string) {
  const res = r as CallToolResult;
  assert.equal(res.isError, true, JSON.stringify(res.content));
  const body = JSON.parse((res.content[0] as { text: string }).text);
  assert.deepEqual(body, { success: false, error: body.error, code: 'insufficient_scope', status: 403, required_scope: required });
}

for (const dialect of dialects()) {
  describe(`scoped, expiring API keys [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-01T00:00:00.000Z'));
    const issue = async (body: Record<string, unknown>, key = alice.key) => {
      const r = await s.req('POST', '/v1/api-keys', { key, body: { name: 'scoped', ...body } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { api_key: string; id: string; scopes: string[]; expires_at: string | null };
    };
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'business' } });

    it('issues keys with scopes (default ["*"]) and an expiry, and lists both', async () => {
      const full = await issue({});
      assert.deepEqual(full.scopes, ['*']);
      assert.equal(full.expires_at, null);
      const narrow = await issue({ scopes: ['sheets:read', 'todos:write'], expires_at: '2026-06-01T00:00:00+02:00' });
      assert.deepEqual(narrow.scopes, ['sheets:read', 'todos:write']);
      assert.equal(narrow.expires_at, '2026-05-31T22:00:00.000Z');
      const list = await s.req('GET', '/v1/api-keys', { key: alice.key });
      const listed = list.body.api_keys.find((k: any) => k.id === narrow.id);
      assert.deepEqual(listed.scopes, ['sheets:read', 'todos:write']);
      assert.equal(listed.expires_at, '2026-05-31T22:00:00.000Z');
      assert.deepEqual(list.body.api_keys.find((k: any) => k.id === full.id).scopes, ['*']);
    });

    it('400 for an unknown scope, an empty list, a bad or past expires_at', async () => {
      const post = (body: unknown) => s.req('POST', '/v1/api-keys', { key: alice.key, body });
      assertError(await post({ name: 'x', scopes: ['sheets:delete'] }), 400, 'invalid_request', /scopes/);
      assertError(await post({ name: 'x', scopes: [] }), 400, 'invalid_request', /scopes/);
      assertError(await post({ name: 'x', expires_at: 'tomorrow' }), 400, 'invalid_request', /expires_at/);
      assertError(await post({ name: 'x', expires_at: '2026-04-30T23:59:59Z' }), 400, 'invalid_request', /expires_at must be in the future/);
    });

    it("REST routes outside the key's scopes answer 403 insufficient_scope with required_scope", async () => {
      const { api_key: key } = await issue({ scopes: ['sheets:read'] });
      const sheet = await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 't', content: { col1: '<p>x</p>' } } });
      const id = sheet.body.sheet.id;
      assert.equal((await s.req('GET', '/v1/sheets', { key })).status, 200);
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key })).status, 200);
      assertScopeError(await s.req('POST', '/v1/sheets', { key, body: { title: 'no' } }), 'sheets:write');
      assertScopeError(await s.req('PUT', `/v1/sheets/${id}`, { key, body: { title: 'no' } }), 'sheets:write');
      assertScopeError(await s.req('DELETE', `/v1/sheets/${id}`, { key }), 'sheets:write');
      assertScopeError(await s.req('POST', `/v1/sheets/${id}/export`, { key, body: { format: 'txt' } }), 'exports:create');
      assertScopeError(await s.req('GET', '/v1/todos', { key }), 'todos:read');
      assertScopeError(await s.req('GET', '/v1/sessions', { key }), 'sessions:read');
      assertScopeError(await s.req('PUT', '/v1/sessions/external/cc:x', { key, body: { title: 't', summary: 's' } }), 'sessions:write');
      assertScopeError(await s.req('PATCH', '/v1/sessions/ses_x', { key, body: { title: 't' } }), 'sessions:write');
      assertScopeError(await s.req('GET', '/v1/briefing?project=x', { key }), 'sessions:read');
      assertScopeError(await s.req('GET', '/v1/knowledge', { key }), 'knowledge:read');
      assertScopeError(await s.req('POST', '/v1/stats', { key, body: {} }), 'stats:write');
      assertScopeError(await s.req('GET', '/v1/webhooks', { key }), 'webhooks:manage');
      assertScopeError(await s.req('GET', '/v1/api-keys', { key }), 'keys:manage');
      assertScopeError(await s.req('GET', '/v1/spark', { key }), 'sparks:run');

      const sparks = await issue({ scopes: ['sparks:run'] });
      assert.equal((await s.req('GET', '/v1/spark', { key: sparks.api_key })).status, 200);
      const create = { name: 'mine', prompt: 'Say {{content}}' };
      assertScopeError(await s.req('POST', '/v1/spark?action=create', { key: sparks.api_key, body: create }), 'sparks:manage');
      // The handler reads the decoded query, so an encoded spelling must need sparks:manage too.
      assertScopeError(await s.req('POST', '/v1/spark?action=%63reate', { key: sparks.api_key, body: create }), 'sparks:manage');
      const manage = await issue({ scopes: ['sparks:manage'] });
      assert.equal((await s.req('POST', '/v1/spark?action=create', { key: manage.api_key, body: create })).status, 200);

      const exporter = await issue({ scopes: ['exports:create', 'sheets:read'] });
      assert.equal((await s.req('POST', `/v1/sheets/${id}/export`, { key: exporter.api_key, body: { format: 'txt' } })).status, 200);
    });

    it('exporting reads the sheet: exports:create alone is 403 sheets:read on REST and MCP (audit #31 finding 5)', async () => {
      const sheet = await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'secret', content: { col1: '<p>private text</p>' } } });
      const id = sheet.body.sheet.id;
      const only = await issue({ scopes: ['exports:create'] });
      assertScopeError(await s.req('POST', `/v1/sheets/${id}/export`, { key: only.api_key, body: { format: 'txt' } }), 'sheets:read');
      const client = await httpClient(s, only.api_key);
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(!names.includes('export_sheet'), 'export_sheet is hidden without sheets:read');
      assert.ok(names.includes('revoke_sheet_export'), 'revoking a link reads nothing: exports:create is enough');
      toolScopeError(await client.callTool({ name: 'export_sheet', arguments: { id, format: 'txt' } }), 'sheets:read');
      await client.close();

      const both = await issue({ scopes: ['exports:create', 'sheets:read'] });
      const made = await s.req('POST', `/v1/sheets/${id}/export`, { key: both.api_key, body: { format: 'txt' } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const download = await fetch(made.body.url);
      assert.match(await download.text(), /private text/);
      const viaMcp = await httpClient(s, both.api_key);
      const r = await viaMcp.callTool({ name: 'export_sheet', arguments: { id, format: 'txt' } });
      assert.notEqual(r.isError, true, JSON.stringify(r.content));
      await viaMcp.close();
      // sheets:read alone still may not make files.
      const reader = await issue({ scopes: ['sheets:read'] });
      assertScopeError(await s.req('POST', `/v1/sheets/${id}/export`, { key: reader.api_key, body: { format: 'txt' } }), 'exports:create');
    });

    it('a handover writes a sheet (sheets:write) and lists todos only with todos:read, on REST and MCP (audit #31 finding 6)', async () => {
      const session = await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: 'audit', summary: 'done', project: 'p6' } });
      const session_id = session.body.session.id;
      await s.req('POST', '/v1/todos', { key: alice.key, body: { project: 'p6', todos: [{ content: 'secret todo 6', status: 'pending' }] } });
      const sheetCount = async () =>
        Number(
          (
            await s.c.db
              .selectFrom('sheets')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('user_id', '=', alice.userId)
              .where('folder', '=', 'Handover')
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await sheetCount();
      assert.equal(typeof before, 'number');

      const sessionsOnly = await issue({ scopes: ['sessions:write'] });
      assertScopeError(await s.req('POST', '/v1/sessions/handover', { key: sessionsOnly.api_key, body: { session_id } }), 'sheets:write');
      const client = await httpClient(s, sessionsOnly.api_key);
      assert.ok(!(await client.listTools()).tools.some((t) => t.name === 'create_handover'), 'create_handover is hidden without sheets:write');
      toolScopeError(await client.callTool({ name: 'create_handover', arguments: { session_id } }), 'sheets:write');
      await client.close();
      assert.equal(await sheetCount(), before, 'no sheet was made');

      const noTodos = await issue({ scopes: ['sessions:write', 'sheets:write'] });
      const withheld = await s.req('POST', '/v1/sessions/handover', { key: noTodos.api_key, body: { session_id } });
      assert.equal(withheld.status, 200, JSON.stringify(withheld.body));
      assert.doesNotMatch(withheld.body.sheet.content.col2, /secret todo 6/);
      assert.match(withheld.body.sheet.content.col2, /Not included: .* may not read todos \(todos:read\)/);
      const mcp = await httpClient(s, noTodos.api_key);
      const viaTool = await mcp.callTool({ name: 'create_handover', arguments: { session_id } });
      assert.notEqual(viaTool.isError, true, JSON.stringify(viaTool.content));
      const toolSheet = (viaTool.structuredContent as { sheet: { content: { col2: string } } }).sheet;
      assert.doesNotMatch(toolSheet.content.col2, /secret todo 6/);
      await mcp.close();

      const withTodos = await issue({ scopes: ['sessions:write', 'sheets:write', 'todos:read'] });
      const shown = await s.req('POST', '/v1/sessions/handover', { key: withTodos.api_key, body: { session_id } });
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      assert.match(shown.body.sheet.content.col2, /secret todo 6/);
    });

    it('webhooks:manage subscribes only to events the credential could read on the event stream', async () => {
      const hook = (key: string, events: string[]) => s.req('POST', '/v1/webhooks', { key, body: { url: 'https://example.com/h', events } });
      const manager = await issue({ scopes: ['webhooks:manage'] });
      assertScopeError(await hook(manager.api_key, ['*']), 'sheets:read');
      assertScopeError(await hook(manager.api_key, ['sheet.created']), 'sheets:read');
      const todos = await issue({ scopes: ['webhooks:manage', 'todos:read'] });
      assert.equal((await hook(todos.api_key, ['todos.synced', 'todo.deleted'])).status, 200);
      assertScopeError(await hook(todos.api_key, ['todos.synced', 'session.saved']), 'sessions:read');
      assertScopeError(await hook(todos.api_key, ['*']), 'sheets:read');
      const client = await httpClient(s, manager.api_key);
      toolScopeError(await client.callTool({ name: 'register_webhook', arguments: { url: 'https://example.com/h', events: ['knowledge.saved'] } }), 'knowledge:read');
      await client.close();
      const all = await issue({ scopes: [...SCOPES] });
      assert.equal((await hook(all.api_key, ['*'])).status, 200);
      assert.equal((await hook(alice.key, ['*'])).status, 200);
    });

    it('keys:manage never grants more than its own scopes', async () => {
      const manager = await issue({ scopes: ['keys:manage', 'todos:read'] });
      const child = await issue({ scopes: ['todos:read'] }, manager.api_key);
      assert.deepEqual(child.scopes, ['todos:read']);
      const more = await s.req('POST', '/v1/api-keys', { key: manager.api_key, body: { name: 'x', scopes: ['todos:read', 'todos:write'] } });
      assertScopeError(more, 'todos:write');
      assertScopeError(await s.req('POST', '/v1/api-keys', { key: manager.api_key, body: { name: 'x' } }), '*');
      assertScopeError(await s.req('POST', '/v1/api-keys', { key: manager.api_key, body: { name: 'x', scopes: ['*'] } }), '*');
    });

    it('an expired key answers 401 on REST and MCP', async () => {
      const soon = await issue({ expires_at: new Date(clock.now().getTime() + 60_000).toISOString() });
      assert.equal((await s.req('GET', '/v1/sheets', { key: soon.api_key })).status, 200);
      clock.advance(60_000);
      assertError(await s.req('GET', '/v1/sheets', { key: soon.api_key }), 401, 'unauthorized', /expired/);
      const mcp = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${soon.api_key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(mcp.status, 401);
    });

    it('only a full-access key opens a console session, and the session ends when its key expires', async () => {
      const signIn = (api_key: string) => s.req('POST', '/console/session', { headers: { 'x-console': '1' }, body: { api_key } });
      assertScopeError(await signIn((await issue({ scopes: ['sheets:read'] })).api_key), '*');
      const soon = await issue({ expires_at: new Date(clock.now().getTime() + 60_000).toISOString() });
      const opened = await signIn(soon.api_key);
      assert.equal(opened.status, 200);
      const cookie = opened.headers.get('set-cookie')!.split(';')[0];
      const viaCookie = () => s.req('GET', '/v1/sheets', { headers: { cookie, 'x-console': '1' } });
      assert.equal((await viaCookie()).status, 200);
      clock.advance(60_000);
      assertError(await viaCookie(), 401, 'unauthorized', /expired/);
    });

    it('MCP lists only the tools the scopes allow and refuses calls outside them', async () => {
      const fullClient = await httpClient(s, alice.key);
      const all = (await fullClient.listTools()).tools;
      for (const t of all) {
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const) {
          assert.equal(typeof t.annotations?.[hint], 'boolean', `${t.name} has ${hint}`);
        }
      }
      await fullClient.close();

      const reader = await issue({ scopes: ['sheets:read', 'todos:write'] });
      const client = await httpClient(s, reader.api_key);
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const n of ['list_sheets', 'search_sheets', 'get_sheet', 'sync_todos', 'delete_todo']) assert.ok(names.includes(n), n);
      for (const n of ['create_sheet', 'update_sheet', 'list_todos', 'save_session', 'register_webhook', 'export_sheet', 'run_spark']) {
        assert.ok(!names.includes(n), `${n} is hidden`);
      }
      assert.ok(names.length < all.length);
      toolScopeError(await client.callTool({ name: 'create_sheet', arguments: { title: 'no' } }), 'sheets:write');
      toolScopeError(await client.callTool({ name: 'list_todos', arguments: {} }), 'todos:read');
      toolScopeError(await client.callTool({ name: 'register_webhook', arguments: { url: 'https://example.com/h', events: ['sheet.created'] } }), 'webhooks:manage');
      const listed = await client.callTool({ name: 'list_sheets', arguments: {} });
      assert.notEqual(listed.isError, true);
      await client.close();

      // Every tool has a named scope: a key holding each scope (but not "*") sees them all.
      const everything = await issue({ scopes: [...SCOPES] });
      const every = await httpClient(s, everything.api_key);
      assert.equal((await every.listTools()).tools.length, all.length);
      await every.close();

      // stdio (the local `mcp` command) lists by the key's scopes too.
      const { client: local } = await stdioClient({ ...dbEnv(s), SHEET_WORKSPACE_API_KEY: reader.api_key });
      assert.deepEqual((await local.listTools()).tools.map((t) => t.name).sort(), [...names].sort());
      toolScopeError(await local.callTool({ name: 'create_sheet', arguments: { title: 'no' } }), 'sheets:write');
      await local.close();

      const keysOnly = await issue({ scopes: ['keys:manage'] });
      const none = await httpClient(s, keysOnly.api_key);
      assert.deepEqual((await none.listTools()).tools, []);
      toolScopeError(await none.callTool({ name: 'list_sheets', arguments: {} }), 'sheets:read');
      await assert.rejects(none.readResource({ uri: 'sheet://sht_nothing' }), /sheets:read/);
      await none.close();
    });
  });
}
