import { Writable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPgDatabase, dialects, request } from '../helpers.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { redactUrl } from '../../src/http/log-redaction.js';

// Audit finding 6: share-link and invitation tokens are credentials; like export tokens they never reach the request log.
describe('redactUrl', () => {
  it('redacts the token segment of every secret path, keeps what follows it, drops the query', () => {
    assert.equal(redactUrl('/s/abc?x=1'), '/s/[redacted]');
    assert.equal(redactUrl('/v1/shared/abc'), '/v1/shared/[redacted]');
    assert.equal(redactUrl('/v1/invitations/inv_abc/accept'), '/v1/invitations/[redacted]/accept');
    assert.equal(redactUrl('/exports/abc?download=1'), '/exports/[redacted]');
    assert.equal(redactUrl('//V1//Shared/abc'), '//V1//Shared/[redacted]', 'a mistyped request for one too');
    assert.equal(redactUrl('/v1/sheets/sht_1?q=s'), '/v1/sheets/sht_1?q=s', 'other paths unchanged');
    assert.equal(redactUrl('/sheets/abc'), '/sheets/abc');
  });
});

for (const dialect of dialects()) {
  for (const style of ['records', 'line'] as const) {
    describe(`share and invitation tokens never reach the request log [${dialect}, ${style}]`, () => {
      it('/s/{token}, /v1/shared/{token} and /v1/invitations/{token}/accept are logged redacted, right or wrong', async () => {
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
        const app = await buildApp(c, { logger: { level: 'info', stream }, requestLog: style });
        await app.listen({ port: 0, host: '127.0.0.1' });
        try {
          const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
          const alice = await c.accounts.create({ name: 'alice', plan: 'business' });
          const bob = await c.accounts.create({ name: 'bob', plan: 'pro' });
          const id = (await request(url, 'POST', '/v1/sheets', { key: alice.api_key, body: { title: 't', content: { col1: '<p>hi</p>' } } })).body.id;
          const share = (await request(url, 'POST', `/v1/sheets/${id}/shares`, { key: alice.api_key, body: {} })).body.share;
          const team = (await request(url, 'POST', '/v1/workspaces', { key: alice.api_key, body: { name: 'Team' } })).body.workspace.id;
          const invitation = (await request(url, 'POST', `/v1/workspaces/${team}/invitations`, { key: alice.api_key, body: { role: 'editor' } })).body.invitation;
          const tokens = [share.token as string, invitation.token as string];
          assert.ok(tokens.every((t) => typeof t === 'string' && t.length > 20));

          assert.equal((await request(url, 'GET', `/s/${share.token}?utm=1`)).status, 200);
          assert.equal((await request(url, 'GET', `/v1/shared/${share.token}`)).status, 200);
          assert.equal((await request(url, 'GET', `/v1/shared/${share.token}/extra`)).status, 404, 'no route: logged by its path');
          assert.equal((await request(url, 'GET', `/v1/invitations/${invitation.token}/accept`)).status, 404, 'wrong method: no route');
          assert.equal((await request(url, 'POST', `/v1/invitations/${invitation.token}/accept`, { key: bob.api_key })).status, 200);
          const wrong = `${share.token.slice(0, 30)}zz`;
          assert.equal((await request(url, 'GET', `/s/${wrong}`)).status, 404);
          assert.equal((await request(url, 'GET', `/v1/invitations/${wrong}/accept`)).status, 404);

          const log = lines.join('');
          for (const t of [...tokens, wrong, share.token.slice(0, 20), invitation.token.slice(4, 24)]) assert.equal(log.includes(t), false, `${t} is not in the log:\n${log}`);
          assert.equal(log.includes(alice.api_key), false);
          if (style === 'records') {
            assert.match(log, /"url":"\/s\/\[redacted\]"/);
            assert.match(log, /"url":"\/v1\/shared\/\[redacted\]"/);
            assert.match(log, /"url":"\/v1\/invitations\/\[redacted\]\/accept"/);
          } else {
            assert.match(log, /GET \/s\/:token 200/);
            assert.match(log, /GET \/v1\/shared\/\[redacted\]\/extra 404/);
            assert.match(log, /GET \/v1\/invitations\/\[redacted\]\/accept 404/);
          }
        } finally {
          await app.close();
          await c.close();
          await pgDb?.drop();
        }
      });
    });
  }
}
