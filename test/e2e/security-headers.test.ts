import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, startServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

/** Issue 16, point 9: security headers on every response, the playground's key storage, file modes. */

const frameAncestorsNone = (csp: string | null) => /frame-ancestors 'none'/.test(csp ?? '');

for (const dialect of dialects()) {
  describe(`security headers [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { users: { alice: 'pro' } });

    it('every response carries nosniff, whatever its route or status', async () => {
      const sheet = await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'Headers' } });
      const answers = [
        await s.req('GET', '/healthz'),
        await s.req('GET', '/v1/sheets', { key: alice.key }),
        await s.req('GET', '/v1/sheets'),
        await s.req('GET', `/v1/sheets/${sheet.body.id}`, { key: alice.key }),
        await s.req('GET', '/no/such/route'),
        await s.req('POST', '/v1/sheets', { key: alice.key, raw: '{bad json', headers: { 'content-type': 'application/json' } }),
        await s.req('GET', '/v1/openapi.json'),
        await s.req('POST', '/mcp', { body: {} }),
        await s.req('GET', '/playground/static/swagger-ui-bundle.js'),
      ];
      for (const r of answers) {
        assert.equal(r.headers.get('x-content-type-options'), 'nosniff', `status ${r.status}`);
        assert.ok(frameAncestorsNone(r.headers.get('content-security-policy')), `status ${r.status}: ${r.headers.get('content-security-policy')}`);
      }
    });

    it('HTML pages have a CSP with frame-ancestors none: console, playground, export downloads', async () => {
      const sheet = await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'Page', content: { col1: '<p>Hi</p>' } } });
      const exp = await s.req('POST', `/v1/sheets/${sheet.body.id}/export`, { key: alice.key, body: { format: 'html' } });
      assert.equal(exp.status, 200, JSON.stringify(exp.body));
      const pages = ['/console/', '/playground/', '/playground/static/index.html', new URL(exp.body.url).pathname];
      for (const p of pages) {
        const r = await s.req('GET', p);
        if (p === '/console/' && r.status === 503) continue; // console not built in this checkout
        assert.equal(r.status, 200, p);
        assert.match(r.headers.get('content-type') ?? '', /text\/html/, p);
        const csp = r.headers.get('content-security-policy');
        assert.ok(frameAncestorsNone(csp), `${p}: ${csp}`);
        assert.doesNotMatch(csp!, /upgrade-insecure-requests/, p);
        assert.match(csp!, /script-src 'self'|default-src 'none'/, p);
        assert.equal(r.headers.get('x-content-type-options'), 'nosniff', p);
        assert.equal(r.headers.get('x-frame-options'), 'DENY', p);
      }
    });
  });
}

describe('data files are owner-only (SQLite)', () => {
  it('a data directory the service creates is 0700; the database, its search index, their -wal and -shm, and secret.key are 0600', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-modes-'));
    const dataDir = path.join(parent, 'data', 'nested');
    const s = await startServer('sqlite', { dataDir });
    try {
      const u = await s.user('pro');
      await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'forces a WAL write' } });
      await s.c.searchIndexer.drain(); // and one of the search index file, which holds the sheets' text too
      const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
      assert.equal(mode(dataDir), '700');
      assert.equal(mode(path.join(parent, 'data')), '700');
      const files = ['sheet-workspace.db', 'sheet-workspace.search-index.db'].flatMap((f) => [f, `${f}-wal`, `${f}-shm`]);
      for (const f of [...files, 'secret.key']) {
        assert.equal(mode(path.join(dataDir, f)), '600', f);
      }
    } finally {
      await s.close();
    }
  });

  it('files left world-readable by an older version are tightened on start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-modes-'));
    const first = await startServer('sqlite', { dataDir });
    await first.close();
    fs.chmodSync(path.join(dataDir, 'sheet-workspace.db'), 0o644);
    const s = await startServer('sqlite', { dataDir });
    try {
      assert.equal((fs.statSync(path.join(dataDir, 'sheet-workspace.db')).mode & 0o777).toString(8), '600');
    } finally {
      await s.close();
    }
  });
});

const skip = browserSkip;
describe('playground in headless Chromium', { skip }, () => {
  it('works under its CSP and keeps a pasted key in sessionStorage, not localStorage', async () => {
    const s = await startServer('sqlite');
    const ctx = await openBrowser();
    try {
      const u = await s.user('pro');
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      page.on('pageerror', (e) => violations.push(e.message));
      await page.goto(`${s.url}/playground/`);
      await page.waitForSelector('.opblock');
      await page.click('button.authorize');
      await page.fill('.modal-ux input[type=text], .modal-ux input[type=password]', u.key);
      await page.click('.modal-ux button.authorize[type=submit], .modal-ux .auth-btn-wrapper button.authorize');
      await page.click('.modal-ux button.close-modal');

      const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('authorized') }));
      assert.ok(stored.session?.includes(u.key), 'the key is kept for this tab');

      // The real localStorage, read from a fresh page of the same origin without the playground's script.
      const probe = await ctx.newPage();
      await probe.goto(`${s.url}/healthz`);
      assert.equal(await probe.evaluate(() => localStorage.getItem('authorized')), null, 'nothing in localStorage');
      assert.equal(await probe.evaluate(() => Object.keys(localStorage).length), 0);
      await probe.close();

      // A reload in the same tab keeps the authorization.
      await page.reload();
      await page.waitForSelector('.opblock');
      assert.equal((await page.locator('button.authorize.locked').count()) > 0, true, 'still authorized after a reload');
      assert.deepEqual(violations, []);
    } finally {
      await ctx.close();
      await s.close();
    }
  });
});
