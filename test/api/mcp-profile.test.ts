import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { dialects, startServer, type TestServer } from '../helpers.js';
import { httpClient } from '../mcp-helpers.js';
import { CODING_TOOLS } from '../../src/mcp/profiles.js';

/** Issue 54, point 4: the coding profile offers the dozen tools a coding session uses; the full set on request. */
for (const dialect of dialects()) {
  describe(`MCP profiles [${dialect}]`, () => {
    let s: TestServer;
    let key: string;
    const clients: Client[] = [];

    before(async () => {
      s = await startServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
      key = (await s.user('pro')).key;
    });
    after(async () => {
      for (const c of clients) await c.close().catch(() => {});
      await s?.close();
    });

    async function connect(query: string, headers: Record<string, string> = {}): Promise<Client> {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } } }));
      clients.push(client);
      return client;
    }

    it('profile=coding lists exactly the coding tools, far smaller than the full list; others are refused by name', async () => {
      const coding = await connect('?profile=coding');
      const listed = (await coding.listTools()).tools;
      assert.deepEqual(listed.map((t) => t.name).sort(), [...CODING_TOOLS].sort());
      const full = await httpClient(s, key);
      clients.push(full);
      const all = (await full.listTools()).tools;
      assert.ok(all.length > 40, `${all.length} tools by default`);
      const size = (tools: unknown[]) => JSON.stringify(tools).length;
      console.log(`[${dialect}] tools/list: coding ${listed.length} tools ${size(listed)} chars, full ${all.length} tools ${size(all)} chars`);
      assert.ok(size(listed) < size(all) / 2.5);

      const refused = (await coding.callTool({ name: 'list_webhooks', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      assert.equal(refused.isError, true);
      assert.match(refused.content[0]!.text, /not offered on this connection.*profile=full/);
      const works = (await coding.callTool({ name: 'list_todos', arguments: {} })) as { isError?: boolean };
      assert.notEqual(works.isError, true);
    });

    it('the header X-MCP-Profile selects too; profile=full is every tool; an unknown profile is a 400 naming it', async () => {
      const viaHeader = await connect('', { 'x-mcp-profile': 'coding' });
      assert.equal((await viaHeader.listTools()).tools.length, CODING_TOOLS.size);
      const full = await connect('?profile=full');
      assert.ok((await full.listTools()).tools.length > 40);
      const r = await fetch(`${s.url}/mcp?profile=tiny`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(r.status, 400);
      const body = (await r.json()) as { error: string; code: string };
      assert.equal(body.code, 'invalid_request');
      assert.match(body.error, /profile must be one of: coding, full/);
    });
  });
}
