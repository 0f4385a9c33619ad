import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient } from '../mcp-helpers.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

for (const dialect of dialects()) {
  describe(`MCP over Streamable HTTP: transport and auth [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { users: { alice: 'pro' } });

    it('answers 401 with the REST error body without a key, with a bad key and with a disabled key', async () => {
      const noKey = await s.req('POST', '/mcp', { body: INIT, headers: MCP_HEADERS });
      assertError(noKey, 401, 'unauthorized', /Authorization/);
      assertError(await s.req('POST', '/mcp', { key: `sk_${'x'.repeat(43)}`, body: INIT, headers: MCP_HEADERS }), 401, 'unauthorized', /Unknown API key/);
      assertError(await s.req('GET', '/mcp'), 401, 'unauthorized');
      assertError(await s.req('DELETE', '/mcp'), 401, 'unauthorized');

      const extra = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'mcp' } });
      const client = await httpClient(s, extra.body.api_key);
      await s.req('DELETE', `/v1/api-keys/${extra.body.id}`, { key: alice.key });
      // The very next request with a disabled key is refused, on /mcp as on /v1.
      await assert.rejects(client.listTools(), /401|disabled/);
      await client.close().catch(() => {});
      assertError(await s.req('POST', '/mcp', { key: extra.body.api_key, body: INIT, headers: MCP_HEADERS }), 401, 'unauthorized', /disabled/);
    });

    it('the SDK client fails to connect with a bad key', async () => {
      const client = new Client({ name: 't', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer sk_${'y'.repeat(43)}` } } });
      await assert.rejects(client.connect(transport), /401|Unknown API key/);
    });

    it('is stateless: initialize needs no session, any POST works alone, GET and DELETE are 405', async () => {
      const init = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${alice.key}` }, body: JSON.stringify(INIT) });
      assert.equal(init.status, 200);
      assert.equal(init.headers.get('mcp-session-id'), null);
      const body = await init.json();
      assert.equal(body.result.serverInfo.name, 'sheet-workspace');
      assert.ok(body.result.capabilities.tools && body.result.capabilities.resources);
      // A tools/list with no prior initialize on this "connection" is served too: any process can answer.
      const list = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${alice.key}`, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      assert.equal(list.status, 200);
      assert.ok(((await list.json()).result.tools as unknown[]).length >= 7);

      const get = await s.req('GET', '/mcp', { key: alice.key });
      assertError(get, 405, 'method_not_allowed', /POST/);
      assert.equal(get.headers.get('allow'), 'POST');
      assertError(await s.req('DELETE', '/mcp', { key: alice.key }), 405, 'method_not_allowed');
    });

    it('lists every tool with a description, an input and output schema and truthful hints', async () => {
      const client = await httpClient(s, alice.key);
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const expected = [
        ...['list_sheets', 'search_sheets', 'get_sheet', 'create_sheet', 'update_sheet', 'trash_sheet', 'restore_sheet'],
        ...['save_session', 'list_sessions', 'get_session', 'update_session', 'create_handover', 'get_latest_handover', 'get_briefing'],
        ...['search_knowledge', 'save_knowledge', 'get_knowledge', 'update_knowledge', 'delete_knowledge'],
        ...['list_todos', 'sync_todos', 'delete_todo', 'log_work_time', 'get_stats'],
        ...['list_sparks', 'run_spark', 'translate_text', 'get_spark', 'create_spark', 'update_spark', 'delete_spark'],
        ...['list_webhooks', 'register_webhook', 'delete_webhook', 'enable_webhook', 'list_webhook_deliveries', 'redeliver_webhook_delivery', 'test_webhook'],
      ];
      for (const name of expected) {
        assert.ok(byName.has(name), `missing tool ${name}`);
      }
      assert.equal(
        [...byName.keys()].some((n) => /api_key/.test(n)),
        false,
        'API-key management is not offered over MCP',
      );
      for (const t of tools) {
        assert.ok((t.description ?? '').length > 40, `${t.name} needs a real description`);
        assert.equal(t.inputSchema.type, 'object');
        assert.equal(t.outputSchema?.type, 'object', `${t.name} has an output schema`);
        const a = t.annotations!;
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
          assert.equal(typeof a[hint], 'boolean', `${t.name}.${hint}`);
        }
        if (a.readOnlyHint) assert.equal(a.destructiveHint, false, `${t.name}: read-only cannot be destructive`);
      }
      assert.equal(byName.get('get_sheet')!.annotations!.readOnlyHint, true);
      assert.equal(byName.get('create_sheet')!.annotations!.readOnlyHint, false);
      assert.equal(byName.get('trash_sheet')!.annotations!.destructiveHint, true);
      assert.deepEqual(byName.get('create_sheet')!.inputSchema.required, ['title']);
      assert.equal((byName.get('list_sheets')!.inputSchema.properties as any).limit.type, 'integer');
      await client.close();
    });

    it('a message over 1 MiB is refused as REST refuses such a body: 413 payload_too_large', async () => {
      const content = { col1: 'a'.repeat(450_000), col2: 'b'.repeat(450_000), col3: 'c'.repeat(450_000) };
      const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_sheet', arguments: { title: 'big', content } } };
      const headers = { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' };
      const viaMcp = await s.req('POST', '/mcp', { key: alice.key, body: call, headers });
      assertError(viaMcp, 413, 'payload_too_large', /1 MiB/);
      assert.deepEqual(viaMcp.body, (await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'big', content } })).body);
    });

    it('an unknown tool is a protocol error', async () => {
      const client = await httpClient(s, alice.key);
      await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /no_such_tool not found/);
      await client.close();
    });
  });
}
