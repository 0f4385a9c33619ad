import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { BIN, ROOT, dbEnv, ok, sameErrorAsRest, stdioClient, toolError } from '../mcp-helpers.js';

/** Runs the command to its end with no MCP client, for the failure modes. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

for (const dialect of dialects()) {
  describe(`MCP over stdio: the sheet-workspace mcp command [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { users: { alice: 'pro' } });

    for (const mode of ['local database', 'relay to SHEET_WORKSPACE_URL'] as const) {
      it(`serves the tools (${mode}); the data and events are what REST sees`, async () => {
        const env = mode === 'local database' ? dbEnv(s) : { SHEET_WORKSPACE_URL: `${s.url}/v1`, DATA_DIR: '/nonexistent-never-opened' };
        const { client, stderr } = await stdioClient({ ...env, SHEET_WORKSPACE_API_KEY: alice.key });
        try {
          assert.equal(client.getServerVersion()?.name, 'sheet-workspace');
          const { tools } = await client.listTools();
          assert.ok(tools.some((t) => t.name === 'create_sheet'));
          const made = ok(await client.callTool({ name: 'create_sheet', arguments: { title: `via ${mode}`, content: { col1: '<p>x</p>' } } }));
          const rest = await s.req('GET', `/v1/sheets/${made.id}`, { key: alice.key });
          assert.deepEqual(rest.body.sheet, made.sheet);
          const [ev] = (await s.events('sheet.created')).filter((e) => e.data.sheet_id === made.id);
          assert.deepEqual(ev.data, { sheet_id: made.id, name: `via ${mode}`, created_at: made.sheet.createdAt, workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId });
          assert.equal(ev.workspace_id, alice.personalWorkspace);
          const unknown = 'sht_01jzzzzzzzzzzzzzzzzzzzzzzz';
          sameErrorAsRest(await client.callTool({ name: 'get_sheet', arguments: { id: unknown } }), await s.req('GET', `/v1/sheets/${unknown}`, { key: alice.key }));
          const read = await client.readResource({ uri: `sheet://${made.id}` });
          assert.equal(JSON.parse((read.contents[0] as { text: string }).text).id, made.id);
          // Logs go to stderr: stdout carried nothing but protocol messages, or the client would have failed to parse.
          assert.match(stderr(), /MCP (server|relay) on stdio/);
        } finally {
          await client.close();
        }
      });
    }

    it("docs/mcp.md's Claude Desktop and Cursor stdio configs work as written", async () => {
      const docs = fs.readFileSync(path.join(ROOT, 'docs', 'mcp.md'), 'utf8');
      const stdio = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).filter((b) => /"command": "node"/.test(b));
      assert.ok(stdio.length >= 2, `docs/mcp.md shows the stdio config for Claude Desktop and Cursor (found ${stdio.length})`);
      for (const block of stdio) {
        const { command, args, env } = JSON.parse(block).mcpServers['sheet-workspace'];
        assert.equal(command, 'node');
        assert.deepEqual(args, [BIN.replace(ROOT, '/path/to/sheet-workspace'), 'mcp']);
        assert.deepEqual(Object.keys(env).sort(), ['SHEET_WORKSPACE_API_KEY', 'SHEET_WORKSPACE_URL']);
      }
      // As written, with the placeholders filled in.
      const { client } = await stdioClient({ SHEET_WORKSPACE_API_KEY: alice.key, SHEET_WORKSPACE_URL: s.url });
      try {
        assert.ok((await client.listTools()).tools.some((t) => t.name === 'export_sheet'));
      } finally {
        await client.close();
      }
    });

    it('a key disabled while the local server runs stops working at once', async () => {
      const extra = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'stdio' } });
      const { client } = await stdioClient({ ...dbEnv(s), SHEET_WORKSPACE_API_KEY: extra.body.api_key });
      try {
        ok(await client.callTool({ name: 'list_sheets', arguments: {} }));
        await s.req('DELETE', `/v1/api-keys/${extra.body.id}`, { key: alice.key });
        assert.match(toolError(await client.callTool({ name: 'list_sheets', arguments: {} }), 401, 'unauthorized').error, /disabled/);
      } finally {
        await client.close();
      }
    });

    it('refuses to start without a key or with a bad key, saying why on stderr and nothing on stdout', async () => {
      const none = await runToExit(dbEnv(s));
      assert.notEqual(none.code, 0);
      assert.equal(none.stdout, '');
      assert.match(none.stderr, /SHEET_WORKSPACE_API_KEY is required/);
      const bad = await runToExit({ ...dbEnv(s), SHEET_WORKSPACE_API_KEY: `sk_${'z'.repeat(43)}`, LOG_LEVEL: 'silent' });
      assert.notEqual(bad.code, 0);
      assert.equal(bad.stdout, '');
      assert.match(bad.stderr, /Unknown API key/);
    });

    it("in relay mode a bad key comes back as the server's 401", async () => {
      await assert.rejects(stdioClient({ SHEET_WORKSPACE_URL: s.url, SHEET_WORKSPACE_API_KEY: `sk_${'z'.repeat(43)}` }), /Unknown API key/);
    });
  });
}
