import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connect, CURSOR_RULES } from '../../src/cli/connect.js';
import { dialects } from '../helpers.js';
import { ok } from '../mcp-helpers.js';
import { useServer } from '../server-fixture.js';

/**
 * Issue 57 point 3: `connect cursor` writes ~/.cursor/mcp.json (owner-only, other servers kept) and the project's rules
 * file; the MCP entry it writes is what Cursor would use, so a client built from it reads the briefing and saves a
 * session with agent "cursor" that the next briefing of the project shows.
 */
for (const dialect of dialects()) {
  describe(`connect cursor [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { users: { alice: 'pro' } });
    const dirs: string[] = [];
    const temp = (prefix: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    };
    after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

    it('writes the MCP server and the rules file, keeps what was there, changes nothing the second time; the entry works', async () => {
      const home = temp('cursor-home-');
      const project = temp('cursor-project-');
      fs.mkdirSync(path.join(home, '.cursor'));
      fs.writeFileSync(path.join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'other-server' } } }));
      const key = users.alice.key;
      const lines = connect('cursor', { url: s.url, key, home, projectDir: project });
      assert.ok(
        lines.some((l) => l.includes('.cursor/mcp.json')),
        lines.join('\n'),
      );
      const mcpFile = path.join(home, '.cursor', 'mcp.json');
      const mcp = JSON.parse(fs.readFileSync(mcpFile, 'utf8'));
      assert.deepEqual(mcp.mcpServers.other, { command: 'other-server' }, 'what was there stays');
      assert.deepEqual(mcp.mcpServers['sheet-workspace'], { url: `${s.url}/mcp`, headers: { Authorization: `Bearer ${key}` } });
      assert.equal(fs.statSync(mcpFile).mode & 0o777, 0o600);
      assert.equal(fs.readFileSync(path.join(project, '.cursor', 'rules', 'sheet-workspace.mdc'), 'utf8'), CURSOR_RULES);
      assert.deepEqual(connect('cursor', { url: s.url, key, home, projectDir: project }), ['nothing to change: already connected']);

      const entry = mcp.mcpServers['sheet-workspace'];
      const client = new Client({ name: 'cursor-stand-in', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }));
      try {
        const saved = ok(await client.callTool({ name: 'save_session', arguments: { title: 'Wired the cursor launcher', summary: 'Added the launcher.', project: 'cursor-app', agent: 'cursor' } }));
        assert.equal(saved.session.agent, 'cursor');
        const briefing = ok(await client.callTool({ name: 'get_briefing', arguments: { project: 'cursor-app' } }));
        assert.match(JSON.stringify(briefing), /Wired the cursor launcher/);
      } finally {
        await client.close();
      }
    });
  });
}
