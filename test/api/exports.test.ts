import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, assertIdRouteSecurity, dialects, startServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

const XSS = '<p>Hello <b>world</b></p><img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)" onclick="alert(4)">click</a>';

for (const dialect of dialects()) {
  describe(`exports [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-03-10T12:00:00.000Z'));
    let sheetId: string;
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });
    before(async () => {
      const r = await s.req('POST', '/v1/sheets', {
        key: alice.key,
        body: { title: 'Release plan: 東京', content: { col10: '<p>tenth</p>', col2: '<ul><li>ship</li><li>tell</li></ul>', col1: XSS }, folder: 'Work', tags: ['ops'] },
      });
      sheetId = r.body.id;
    });

    const exportAs = (format: unknown, key = alice.key, id = sheetId) => s.req('POST', `/v1/sheets/${id}/export`, { key, body: { format } });
    /** Downloads without any Authorization header. */
    const download = (url: string) => s.req('GET', new URL(url).pathname);

    it('returns {success, export_id, format, url} and writes export.completed with the same url', async () => {
      const r = await exportAs('markdown');
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(Object.keys(r.body).sort(), ['expires_at', 'export_id', 'format', 'success', 'url', 'workspace_id']);
      assert.equal(r.body.success, true);
      assert.match(r.body.export_id, /^exp_[0-9a-z]{26}$/);
      assert.equal(r.body.format, 'markdown');
      assert.match(r.body.url, new RegExp(`^${s.url}/exports/[A-Za-z0-9_-]{43}$`), 'absolute url from the request host');
      assert.equal(r.body.expires_at, '2026-03-11T12:00:00.000Z');
      const evs = (await s.events('export.completed')).filter((e) => e.data.url === r.body.url);
      assert.equal(evs.length, 1);
      assert.deepEqual(evs[0].data, { sheet_id: sheetId, format: 'markdown', url: r.body.url, workspace_id: r.body.workspace_id, actor_id: alice.userId });
      assert.equal(r.body.workspace_id, `wsp_${alice.userId.slice(4)}`);
      assert.equal(evs[0].workspace_id, alice.personalWorkspace);
      const row = await s.c.db.selectFrom('exports').selectAll().where('id', '=', r.body.export_id).executeTakeFirstOrThrow();
      const token = r.body.url.split('/').pop();
      assert.notEqual(row.token_hash, token, 'only a hash of the token is stored');
      assert.equal(JSON.stringify(row).includes(token), false);
    });

    it('markdown: front matter, columns in numeric order, turndown output, no script', async () => {
      const r = await download((await exportAs('markdown')).body.url);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(r.headers.get('content-disposition'), `attachment; filename="Release-plan-__.md"; filename*=UTF-8''${encodeURIComponent('Release-plan-東京.md')}`);
      const md: string = r.body;
      assert.match(md, /^---\ntitle: "Release plan: 東京"\nfolder: "Work"\ntags: \["ops"\]\ncreated: 2026-03-10T12:00:00.000Z\n/);
      assert.match(md, /\n# Release plan: 東京\n\nHello \*\*world\*\*/);
      assert.match(md, /-\s+ship\n-\s+tell/);
      assert.ok(md.indexOf('Hello') < md.indexOf('ship') && md.indexOf('ship') < md.indexOf('tenth'), 'col1, col2, col10 order');
      assert.match(md, /!\[\]\(x\)click/, 'image kept without its handler; the javascript: link became plain text');
      for (const bad of ['alert', 'javascript:', 'onerror', '<script']) assert.equal(md.includes(bad), false, `markdown contains ${bad}`);
    });

    it('markdown: text that looks like HTML stays text (title and body), code stays verbatim', async () => {
      const title = '<img src=x onerror=alert(1)>';
      const content = {
        col1: '<p>&lt;script&gt;alert(5)&lt;/script&gt;</p><p>AT&amp;T &gt; 3 &amp;lt;</p><img src="pic.png" alt="<b>x</b>">',
        col2: '<pre><code>if (a < b) {}</code></pre>',
      };
      const id = (await s.req('POST', '/v1/sheets', { key: alice.key, body: { title, content } })).body.id;
      const r = await download((await exportAs('markdown', alice.key, id)).body.url);
      assert.equal(r.status, 200);
      const md: string = r.body;
      assert.match(md, /\n# &lt;img src=x onerror=alert\(1\)&gt;\n/);
      assert.match(md, /\n&lt;script&gt;alert\(5\)&lt;\/script&gt;\n/);
      assert.match(md, /\nAT&amp;T &gt; 3 &amp;lt;\n/, '& escaped too, so a literal "&lt;" in the text survives rendering');
      assert.match(md, /!\[&lt;b&gt;x&lt;\/b&gt;\]\(pic\.png\)/, 'image alt text escaped the same way');
      assert.match(md, /```\nif \(a < b\) \{\}\n```/, 'code blocks are literal in Markdown and are left alone');
      const outsideFrontMatterAndCode = md.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/```[\s\S]*?```/g, '');
      assert.equal(/<[a-z/!]/i.test(outsideFrontMatterAndCode), false, `no raw HTML tag in:\n${outsideFrontMatterAndCode}`);
      const txt = await download((await exportAs('txt', alice.key, id)).body.url);
      assert.equal(txt.headers.get('content-type'), 'text/plain; charset=utf-8', 'txt is served as plain text (with nosniff), so it needs no escaping');
      assert.equal(txt.headers.get('x-content-type-options'), 'nosniff');
      assert.match(txt.body, /^<img src=x onerror=alert\(1\)>\n=+\n\n<script>alert\(5\)<\/script>\n/);
    });

    it('html: a complete document with the XSS stripped and strict headers', async () => {
      const r = await download((await exportAs('html')).body.url);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(r.headers.get('content-disposition')!, /^attachment; filename="Release-plan-__\.html"/);
      assert.match(r.headers.get('content-security-policy')!, /default-src 'none'/);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      const html: string = r.body;
      assert.match(html, /^<!doctype html>\n<html lang="en">/);
      assert.match(html, /<title>Release plan: 東京<\/title>/);
      assert.match(html, /<meta http-equiv="Content-Security-Policy"/);
      assert.match(html, /<section class="column" data-column="col1">\n<p>Hello <b>world<\/b><\/p><img src="x"><a>click<\/a>\n<\/section>/);
      assert.match(html, /<ul><li>ship<\/li><li>tell<\/li><\/ul>/);
      assert.match(html, /<\/html>\n$/);
      for (const bad of ['alert', 'javascript:', 'onerror', 'onclick', '<script']) assert.equal(html.includes(bad), false, `html contains ${bad}`);
    });

    it('txt: the visible text only', async () => {
      const r = await download((await exportAs('txt')).body.url);
      assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(r.body, 'Release plan: 東京\n================\n\nHello world\nclick\n\nship\ntell\n\ntenth\n');
    });

    it('json: the sheet object exactly as GET /sheets/{id} returns it', async () => {
      const r = await download((await exportAs('json')).body.url);
      assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.match(r.headers.get('content-disposition')!, /filename="Release-plan-__\.json"/);
      const got = await s.req('GET', `/v1/sheets/${sheetId}`, { key: alice.key });
      assert.deepEqual(r.body, got.body.sheet);
    });

    it('expires after 24 hours; unknown or malformed tokens are 404 JSON errors', async () => {
      const { url } = (await exportAs('txt')).body;
      clock.advance(24 * 3600_000 - 1);
      assert.equal((await download(url)).status, 200, 'still valid one millisecond before expiry');
      clock.advance(1);
      assertError(await download(url), 404, 'not_found', /expired/);
      assertError(await s.req('GET', `/exports/${'A'.repeat(43)}`), 404, 'not_found', /expired/);
      assertError(await s.req('GET', '/exports/short'), 404, 'not_found');
      assert.equal((await s.c.exports.purgeExpired()) >= 1, true);
      assertError(await download(url), 404, 'not_found');
    });

    it('uses PUBLIC_URL when configured', async () => {
      const s2 = await startServer(dialect, { clock, env: { PUBLIC_URL: 'https://sheets.example.com/' } });
      try {
        const u = await s2.user('free');
        const id = (await s2.req('POST', '/v1/sheets', { key: u.key, body: { title: 't' } })).body.id;
        const r = await s2.req('POST', `/v1/sheets/${id}/export`, { key: u.key, body: { format: 'json' } });
        assert.match(r.body.url, /^https:\/\/sheets\.example\.com\/exports\/[A-Za-z0-9_-]{43}$/);
        assert.equal((await s2.req('GET', new URL(r.body.url).pathname)).status, 200);
      } finally {
        await s2.close();
      }
    });

    it('validates format and enforces tenancy (401/403/404)', async () => {
      assertError(await exportAs('pdf'), 400, 'invalid_request', /format.*markdown, html, txt, json/);
      assertError(await exportAs(undefined), 400, 'invalid_request', /format/);
      const before = (await s.events('export.completed')).length;
      await assertIdRouteSecurity(s, { method: 'POST', path: (x) => `/v1/sheets/${x}/export`, body: { format: 'html' } }, alice, sheetId, 'sht_00000000000000000000000000');
      assert.equal((await s.events('export.completed')).length, before, 'failed exports emit nothing');
    });
  });
}
