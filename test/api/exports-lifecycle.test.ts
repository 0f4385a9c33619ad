import { Writable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, assertIdRouteSecurity, createPgDatabase, dialects, request } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { manualClock } from '../../src/clock.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { TRASH_RETENTION_MS } from '../../src/modules/sheets/sheets.service.js';

const UNKNOWN_SHEET = 'sht_00000000000000000000000000';
const UNKNOWN_EXPORT = 'exp_00000000000000000000000000';

for (const dialect of dialects()) {
  describe(`exports die with their sheet; list and revoke [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-04-01T12:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const newSheet = async (title = 'doc') => (await s.req('POST', '/v1/sheets', { key: alice.key, body: { title, content: { col1: '<p>secret</p>' } } })).body.id as string;
    const exportAs = async (id: string, format = 'txt') => (await s.req('POST', `/v1/sheets/${id}/export`, { key: alice.key, body: { format } })).body;
    const download = (url: string) => s.req('GET', new URL(url).pathname);

    it('permanent delete invalidates every export of the sheet at once (404), others stay', async () => {
      const id = await newSheet();
      const keep = await newSheet('keep');
      const [a, b, k] = [await exportAs(id), await exportAs(id, 'json'), await exportAs(keep)];
      assert.equal((await download(a.url)).status, 200);
      // Trash alone keeps the links: the sheet can still be restored.
      await s.req('DELETE', `/v1/sheets/${id}`, { key: alice.key });
      assert.equal((await download(a.url)).status, 200);
      const del = await s.req('DELETE', `/v1/sheets/${id}?permanent=true`, { key: alice.key });
      assert.equal(del.status, 200);
      assertError(await download(a.url), 404, 'not_found');
      assertError(await download(b.url), 404, 'not_found');
      assert.equal((await download(k.url)).status, 200);
      const rows = await s.c.db.selectFrom('exports').select('id').where('sheet_id', '=', id).execute();
      assert.equal(rows.length, 0, 'the rendered files are gone, not just hidden');
    });

    it('the 30-day trash purge invalidates the exports of purged sheets', async () => {
      const id = await newSheet('old');
      const e = await exportAs(id);
      await s.req('DELETE', `/v1/sheets/${id}`, { key: alice.key });
      clock.advance(TRASH_RETENTION_MS + 1000);
      const live = await newSheet('live');
      const le = await exportAs(live);
      // Keep the old export unexpired, so only the purge can be what removes it.
      await s.c.db.updateTable('exports').set({ expires_at: '2099-01-01T00:00:00.000Z' }).where('id', '=', e.export_id).execute();
      assert.equal((await download(e.url)).status, 200, 'trashed but not yet purged');
      assert.ok((await s.c.sheets.purgeTrash()) >= 1);
      assertError(await download(e.url), 404, 'not_found');
      await s.c.exports.purgeExpired();
      assert.equal((await s.c.db.selectFrom('exports').select('id').where('id', '=', e.export_id).execute()).length, 0, 'orphans are purged');
      assert.equal((await download(le.url)).status, 200);
    });

    it('GET /sheets/{id}/exports lists live exports, newest first, without tokens', async () => {
      const id = await newSheet('listed');
      const first = await exportAs(id, 'markdown');
      clock.advance(1000);
      const second = await exportAs(id, 'html');
      const r = await s.req('GET', `/v1/sheets/${id}/exports`, { key: alice.key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.success, true);
      assert.deepEqual(
        r.body.exports.map((x: any) => x.export_id),
        [second.export_id, first.export_id],
      );
      assert.deepEqual(Object.keys(r.body.exports[0]).sort(), ['created_at', 'expires_at', 'export_id', 'filename', 'format', 'workspace_id']);
      assert.equal(r.body.exports[0].format, 'html');
      assert.equal(r.body.exports[0].expires_at, second.expires_at);
      assert.equal(JSON.stringify(r.body).includes(second.url.split('/').pop()), false);
      clock.advance(24 * 3600_000 - 500);
      const later = await s.req('GET', `/v1/sheets/${id}/exports`, { key: alice.key });
      assert.deepEqual(
        later.body.exports.map((x: any) => x.export_id),
        [second.export_id],
        'expired exports are not listed',
      );
      await assertIdRouteSecurity(s, { method: 'GET', path: (x) => `/v1/sheets/${x}/exports` }, alice, id, UNKNOWN_SHEET);
    });

    it('DELETE /sheets/{id}/exports/{export_id} revokes one export (404 afterwards)', async () => {
      const id = await newSheet('revoke');
      const [a, b] = [await exportAs(id), await exportAs(id)];
      const r = await s.req('DELETE', `/v1/sheets/${id}/exports/${a.export_id}`, { key: alice.key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { success: true, export_id: a.export_id, revoked: true });
      assertError(await download(a.url), 404, 'not_found');
      assert.equal((await download(b.url)).status, 200);
      assertError(await s.req('DELETE', `/v1/sheets/${id}/exports/${a.export_id}`, { key: alice.key }), 404, 'not_found', /export/i);
      // An export id of another sheet, even the owner's own, is not found under this sheet.
      const other = await newSheet('other');
      assertError(await s.req('DELETE', `/v1/sheets/${other}/exports/${b.export_id}`, { key: alice.key }), 404, 'not_found');
      await assertIdRouteSecurity(s, { method: 'DELETE', path: (x) => `/v1/sheets/${x}/exports/${b.export_id}` }, alice, id, UNKNOWN_SHEET);
      assertError(await s.req('DELETE', `/v1/sheets/${id}/exports/${UNKNOWN_EXPORT}`, { key: alice.key }), 404, 'not_found');
      assert.equal((await download(b.url)).status, 200);
    });

    it('MCP: list_sheet_exports and revoke_sheet_export', async () => {
      const id = await newSheet('mcp');
      const e = await exportAs(id);
      const client = await httpClient(s, alice.key);
      try {
        const listed = ok(await client.callTool({ name: 'list_sheet_exports', arguments: { id } }));
        assert.deepEqual(
          listed.exports.map((x: any) => x.export_id),
          [e.export_id],
        );
        const revoked = ok(await client.callTool({ name: 'revoke_sheet_export', arguments: { id, export_id: e.export_id } }));
        assert.deepEqual(revoked, { success: true, export_id: e.export_id, revoked: true });
        assertError(await download(e.url), 404, 'not_found');
        toolError(await client.callTool({ name: 'revoke_sheet_export', arguments: { id, export_id: e.export_id } }), 404, 'not_found');
        const bob = await s.user('pro');
        const bobClient = await httpClient(s, bob.key);
        toolError(await bobClient.callTool({ name: 'list_sheet_exports', arguments: { id } }), 403, 'forbidden');
        await bobClient.close();
      } finally {
        await client.close();
      }
    });
  });

  describe(`export tokens never reach the access log [${dialect}]`, () => {
    it('the request log shows /exports/[redacted]', async () => {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk, _enc, cb) {
          lines.push(chunk.toString());
          cb();
        },
      });
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-test-'));
      const pgDb = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const c = await createContainer(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', BOOTSTRAP_OWNER: '0', ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) }));
      const app = await buildApp(c, { logger: { level: 'info', stream } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
        const u = await c.accounts.create({ name: 'log', plan: 'pro' });
        const id = (await request(url, 'POST', '/v1/sheets', { key: u.api_key, body: { title: 't' } })).body.id;
        const e = (await request(url, 'POST', `/v1/sheets/${id}/export`, { key: u.api_key, body: { format: 'txt' } })).body;
        const token = e.url.split('/').pop();
        assert.equal((await request(url, 'GET', `/exports/${token}?x=1`)).status, 200);
        assert.equal((await request(url, 'GET', `/exports/${token.slice(0, 20)}`)).status, 404);
        const log = lines.join('');
        assert.match(log, /"url":"\/exports\/\[redacted\]/);
        assert.equal(log.includes(token), false, 'the token is not in the log');
        assert.equal(log.includes(token.slice(0, 20)), false, 'nor a wrong token');
        assert.equal(log.includes(u.api_key), false);
      } finally {
        await app.close();
        await c.close();
        await pgDb?.drop();
      }
    });
  });
}
