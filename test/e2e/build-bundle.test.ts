import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { createPgDatabase, dialects } from '../helpers.js';
import { httpClient, ROOT } from '../mcp-helpers.js';
import { startProcess } from '../processes.js';
import { startReceiver, webhookEnv } from '../webhooks-helpers.js';

// `npm start` runs one esbuild bundle (build/main.js, its worker entries and lazily loaded chunks), not
// src/ through tsx as the other tests do. Paths found from the module's own location (dist/console, the
// worker files, Swagger UI's assets) and lazy imports (undici, the MCP SDK, pg) are where a bundle breaks.
before(() => {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--force'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

for (const dialect of dialects()) {
  describe(`the bundled build that npm start runs [${dialect}]`, () => {
    it('serves the console, the playground, REST with both worker pools, MCP and webhooks', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bundle-'));
      const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const dbEnv = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
      const admin = await createContainer(loadConfig({ ...dbEnv, LOG_LEVEL: 'silent', BOOTSTRAP_OWNER: '0' }));
      const rcv = await startReceiver();
      const proc = await startProcess({ ...dbEnv, ...webhookEnv() }, 'serve', { built: true });
      try {
        const { api_key: key } = await admin.accounts.create({ name: 'bundle', plan: 'business' });
        for (const [p, type] of [
          ['/healthz', 'json'],
          ['/console/', 'html'],
          ['/playground/static/index.html', 'html'],
          ['/v1/openapi.json', 'json'],
        ]) {
          const res = await fetch(`${proc.url}${p}`);
          assert.equal(res.status, 200, `${p}: ${await res.text()}`);
          assert.match(res.headers.get('content-type') ?? '', new RegExp(type), p);
        }

        const hook = await proc.req('POST', '/v1/webhooks', { key, body: { url: rcv.url, events: ['sheet.created'] } });
        assert.equal(hook.status, 200, JSON.stringify(hook.body));
        // 40 KB of HTML: columns of 32 KB or more are read in the HTML worker thread.
        const big = `<p>${'wombat '.repeat(6_000)}</p>`;
        const created = await proc.req('POST', '/v1/sheets', { key, body: { title: 'bundled', content: { col1: big } } });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        // On SQLite the search runs on a read-only connection in a worker thread.
        const found = await proc.req('GET', '/v1/sheets?q=wombat&fields=id', { key });
        assert.equal(found.status, 200, JSON.stringify(found.body));
        assert.deepEqual(
          found.body.sheets.map((s: { id: string }) => s.id),
          [created.body.sheet.id],
        );

        const [delivery] = await rcv.waitFor(1);
        assert.equal(delivery.body.event, 'sheet.created');

        const mcp = await httpClient(proc, key);
        const tools = await mcp.listTools();
        assert.ok(
          tools.tools.some((t) => t.name === 'get_sheet'),
          'MCP tools listed',
        );
        await mcp.close();
      } finally {
        await proc.stop();
        await rcv.close();
        await admin.close();
        await pg?.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
