import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BODY_LIMIT } from '../../src/http/server-settings.js';
import { ARGUMENTS_LIMIT } from '../../src/mcp/tool.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { dbEnv, ok, sameErrorAsRest, stdioClient, toolError } from '../mcp-helpers.js';
import { startFakeAi, type FakeAi } from '../sparks-fakes.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';
import { toolTable } from '../mcp-stdio-table.js';

/** Every tool over stdio (`sheet-workspace mcp` on the local database), one process for the whole table. */
for (const dialect of dialects()) {
  describe(`MCP over stdio: every tool's success and error path [${dialect}]`, () => {
    let ai: FakeAi;
    let rcv: Receiver;
    let stdioKey: { id: string; key: string };
    let client: Client;
    /** Records made through REST before the table runs. */
    const f: Record<string, string> = {};
    /** Values one row's success leaves for a later row. */
    const ctx: Record<string, string> = {};

    before(async () => {
      [ai, rcv] = await Promise.all([startFakeAi('openai', 'sk-test-openai'), startReceiver()]);
    });
    const aiEnv = () => ({ AI_PROVIDER: 'openai', AI_BASE_URL: ai.url, AI_API_KEY: 'sk-test-openai', AI_MODEL: 'gpt-test' });
    const {
      s,
      users: { alice },
      beforeClose,
    } = useServer(dialect, { worker: { pollMs: 50 }, users: { alice: 'business' }, lateOptions: () => ({ env: webhookEnv(aiEnv()) }) });
    before(async () => {
      const bob = await s.user('pro');
      const made = (await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'stdio table' } })).body;
      stdioKey = { id: made.id, key: made.api_key };
      // PUBLIC_URL: export links made by the stdio process download from the test server, as from `serve`.
      ({ client } = await stdioClient({ ...dbEnv(s), ...webhookEnv(aiEnv()), PUBLIC_URL: s.url, LOG_LEVEL: 'warn', SHEET_WORKSPACE_API_KEY: stdioKey.key }));

      const as = async (key: string, method: string, path: string, body?: unknown) => {
        const r = await s.req(method, path, { key, body });
        assert.equal(r.status, 200, `${method} ${path}: ${JSON.stringify(r.body)}`);
        return r.body;
      };
      const a = (method: string, path: string, body?: unknown) => as(alice.key, method, path, body);
      f.sheet = (await a('POST', '/v1/sheets', { title: 'fixture sheet', content: { col1: '<p>fixture text</p>' } })).id;
      f.trashed = (await a('POST', '/v1/sheets', { title: 'to restore' })).id;
      await a('DELETE', `/v1/sheets/${f.trashed}`);
      f.toTrash = (await a('POST', '/v1/sheets', { title: 'to trash' })).id;
      f.bobSheet = (await as(bob.key, 'POST', '/v1/sheets', { title: 'bob' })).id;
      f.edits = (await a('POST', '/v1/sheets', { title: 'edits', content: { col1: '<p>one</p>' } })).id;
      f.session = (await a('POST', '/v1/sessions', { title: 'fixture session', summary: 'Did things.', project: 'fixture' })).id;
      f.solution = (await a('POST', '/v1/knowledge?type=solutions', { title: 'fixture error', error: 'ENOENT fixture', content: 'Create it.' })).id;
      f.snippetToDelete = (await a('POST', '/v1/knowledge?type=snippets', { title: 'gone soon', content: 'x()' })).id;
      const todos = (
        await a('POST', '/v1/todos', {
          project: 'fixture',
          todos: [
            { content: 'keep', status: 'pending' },
            { content: 'drop', status: 'pending' },
          ],
        })
      ).todos;
      f.todoToDelete = todos.find((t: any) => t.content === 'drop').id;
      f.spark = (await a('POST', '/v1/spark?action=create', { name: 'Mine', prompt: 'Do: {{content}}' })).id;
      f.sparkToDelete = (await a('POST', '/v1/spark?action=create', { name: 'Gone', prompt: '{{content}}' })).id;
      f.bobSpark = (await as(bob.key, 'POST', '/v1/spark?action=create', { name: 'Bobs', prompt: '{{content}}' })).id;
      f.hook = (await a('POST', '/v1/webhooks', { url: rcv.url, events: ['sheet.deleted'] })).webhook.id;
      f.hookToDelete = (await a('POST', '/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).webhook.id;
    });
    beforeClose(() => client?.close());
    after(async () => {
      await Promise.all([ai.close(), rcv.close()]);
    });
    const rest = async (method: string, path: string, body?: unknown) => (await s.req(method, path, { key: alice.key, body })).body;

    it("refuses tool arguments over 1 MiB with REST's 413, and takes what REST takes", async () => {
      assert.equal(ARGUMENTS_LIMIT, BODY_LIMIT);
      const before = (await rest('GET', '/v1/sheets?limit=0')).total;
      const big = { title: 'too big', content: { col1: 'a'.repeat(450_000), col2: 'b'.repeat(450_000), col3: 'c'.repeat(450_000) } };
      const r = await client.callTool({ name: 'create_sheet', arguments: big });
      assert.equal(toolError(r, 413, 'payload_too_large').error, 'Request body is larger than the 1 MiB limit');
      sameErrorAsRest(r, await s.req('POST', '/v1/sheets', { key: alice.key, body: big }));
      assert.equal((await rest('GET', '/v1/sheets?limit=0')).total, before, 'nothing was created');
      // Just under the limit: accepted on both.
      const near = { title: 'near limit', content: { col1: 'a'.repeat(480_000), col2: 'b'.repeat(480_000) } };
      // The answer is held to MCP_RESULT_MAX_CHARS (docs/agents.md); the sheet itself is stored whole.
      const created = ok(await client.callTool({ name: 'create_sheet', arguments: near }));
      assert.match(created.truncated, /sheet\.content\.col\d: cut after/);
      assert.equal((await rest('GET', `/v1/sheets/${created.id}`)).sheet.content.col2.length, 480_000);
      assert.equal((await s.req('POST', '/v1/sheets', { key: alice.key, body: near })).status, 200);
    });

    it("every listed tool: its success path matches REST, its error is REST's error", async (t) => {
      const { tools } = await client.listTools();
      const table = toolTable({ s, alice, client, ai, rcv, f, ctx, rest });
      assert.deepEqual(tools.map((x) => x.name).sort(), Object.keys(table).sort(), 'every listed tool has a row, and every row a tool');
      for (const [name, row] of Object.entries(table)) {
        await t.test(name, async () => {
          const out = ok(await client.callTool({ name, arguments: row.ok() }));
          await row.check?.(out);
          if (!row.err) return;
          const r = await client.callTool({ name, arguments: row.err() });
          if (row.rest) {
            const [method, path, body] = row.rest();
            const viaRest = await s.req(method, path, { key: alice.key, body });
            assert.ok(viaRest.status >= 400, `${method} ${path} should fail`);
            sameErrorAsRest(r, viaRest);
          } else toolError(r, ...row.expect!);
        });
      }

      // Tools without arguments fail only for the caller: a key disabled meanwhile, as on REST.
      await s.req('DELETE', `/v1/api-keys/${stdioKey.id}`, { key: alice.key });
      for (const [name, row] of Object.entries(table).filter(([, r]) => r.afterKeyDisabled)) {
        const [method, path] = row.afterKeyDisabled!();
        const r = await client.callTool({ name, arguments: {} });
        toolError(r, 401, 'unauthorized');
        sameErrorAsRest(r, await s.req(method, path, { key: stdioKey.key }));
      }
    });
  });
}
