import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { manualClock } from '../../src/clock.js';
import { assertError, dialects, expect200, request } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

/** Read-only share links of a sheet (issue 33.7): no key to read, hashed tokens, revoked at once, nothing runs. */
const HOSTILE = {
  col1: '<h2>Plan</h2><p>kept <b>bold</b></p><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">',
  col2: '<a href="javascript:window.__pwned=3">link</a><iframe src="https://example.com"></iframe><p>second</p>',
};

for (const dialect of dialects()) {
  describe(`share links [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-06-01T09:00:00.000Z'));
    const {
      s,
      users: { alice, bob },
    } = useServer(dialect, { clock, users: { alice: 'pro', bob: 'pro' }, env: { SHARED_READ_LIMIT: '1000' } });

    const sheet = async (title = 'Shared plan') => (await expect200(s, alice.key, 'POST', '/v1/sheets', { title, content: HOSTILE, tags: ['team'] })).sheet.id as string;
    const share = async (id: string, body: object = {}) => (await expect200(s, alice.key, 'POST', `/v1/sheets/${id}/shares`, body)).share;
    const anonymous = (path: string) => request(s.url, 'GET', path);

    it('makes a link whose token is long, random and stored hashed; anyone reads the sheet through it', async () => {
      const id = await sheet();
      const link = await share(id);
      assert.deepEqual(Object.keys(link).sort(), ['expires_at', 'id', 'token', 'url']);
      assert.match(link.id, /^shr_[0-9a-z]{26}$/);
      assert.ok(link.token.length >= 40);
      assert.equal(link.expires_at, null, 'no expiry unless asked');
      assert.equal(link.url, `${s.url}/s/${link.token}`);
      const stored = await s.c.db.selectFrom('sheet_shares').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
      assert.notEqual(stored.token_hash, link.token);
      assert.ok(!JSON.stringify(stored).includes(link.token));

      const r = await anonymous(`/v1/shared/${link.token}`);
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body.sheet).sort(), ['content', 'folder', 'tags', 'title', 'updatedAt', 'version']);
      assert.equal(r.body.sheet.title, 'Shared plan');
      assert.ok(!JSON.stringify(r.body).includes(alice.userId), 'nothing of the owner');
      assert.match(r.body.sheet.content.col1, /kept <b>bold<\/b>/);
      assert.doesNotMatch(JSON.stringify(r.body.sheet.content), /script|onerror|javascript:|iframe/i);
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
      assert.match(String(r.headers.get('x-robots-tag')), /noindex/);
    });

    it('shows the sheet as a page: sanitized, strict CSP, noindex, no referrer', async () => {
      const link = await share(await sheet('Page <b>title</b>'));
      const res = await fetch(`${s.url}/s/${link.token}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /script-src/);
      assert.match(csp, /sandbox/);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.match(res.headers.get('x-robots-tag') ?? '', /noindex/);
      assert.match(res.headers.get('cache-control') ?? '', /no-store/);
      const html = await res.text();
      assert.match(html, /<title>Page &lt;b&gt;title&lt;\/b&gt;<\/title>/);
      assert.match(html, /kept <b>bold<\/b>/);
      assert.match(html, /second/);
      assert.doesNotMatch(html, /<script|onerror|javascript:|<iframe/i);
    });

    it('lists links without their tokens and ends one at once', async () => {
      const id = await sheet();
      const a = await share(id);
      const b = await share(id, { expires_in_hours: 24 });
      const list = (await expect200(s, alice.key, 'GET', `/v1/sheets/${id}/shares`)).shares;
      assert.deepEqual(
        list.map((x: any) => x.id),
        [a.id, b.id],
      );
      assert.deepEqual(list[1], { id: b.id, created_by: alice.userId, created_at: '2026-06-01T09:00:00.000Z', expires_at: '2026-06-02T09:00:00.000Z' });
      assert.ok(!JSON.stringify(list).includes(a.token));
      assert.deepEqual(await expect200(s, alice.key, 'DELETE', `/v1/sheets/${id}/shares/${a.id}`), { success: true, id: a.id, revoked: true });
      assertError(await anonymous(`/v1/shared/${a.token}`), 404, 'not_found', /share link not found/);
      assert.equal((await fetch(`${s.url}/s/${a.token}`)).status, 404);
      assert.equal((await anonymous(`/v1/shared/${b.token}`)).status, 200, 'the other link lives on');
      assertError(await s.req('DELETE', `/v1/sheets/${id}/shares/${a.id}`, { key: alice.key }), 404, 'not_found');
    });

    it('unknown, expired, trashed and deleted all answer the same 404', async () => {
      const id = await sheet();
      const short = await share(id, { expires_in_hours: 1 });
      const long = await share(id);
      const unknown = await anonymous('/v1/shared/not-a-real-token');
      assertError(unknown, 404, 'not_found');
      clock.advance(3_600_000);
      const expired = await anonymous(`/v1/shared/${short.token}`);
      assert.deepEqual(expired.body, unknown.body, 'an expired link says nothing more than an unknown one');
      assert.equal((await anonymous(`/v1/shared/${long.token}`)).status, 200);
      await expect200(s, alice.key, 'DELETE', `/v1/sheets/${id}`);
      assert.deepEqual((await anonymous(`/v1/shared/${long.token}`)).body, unknown.body, 'trashed');
      assertError(await s.req('POST', `/v1/sheets/${id}/shares`, { key: alice.key, body: {} }), 409, 'conflict', /trash/);
      await expect200(s, alice.key, 'DELETE', `/v1/sheets/${id}?permanent=true`);
      assert.deepEqual((await anonymous(`/v1/shared/${long.token}`)).body, unknown.body, 'deleted');
    });

    it("another account's sheet: 403 to share, list or revoke; an unknown sheet 404; scopes apply", async () => {
      const id = await sheet();
      const link = await share(id);
      assertError(await s.req('POST', `/v1/sheets/${id}/shares`, { key: bob.key, body: {} }), 403, 'forbidden');
      assertError(await s.req('GET', `/v1/sheets/${id}/shares`, { key: bob.key }), 403, 'forbidden');
      assertError(await s.req('DELETE', `/v1/sheets/${id}/shares/${link.id}`, { key: bob.key }), 403, 'forbidden');
      assertError(await s.req('POST', '/v1/sheets/sht_01jzzzzzzzzzzzzzzzzzzzzzzz/shares', { key: alice.key, body: {} }), 404, 'not_found');
      assertError(await s.req('POST', `/v1/sheets/${id}/shares`, { key: alice.key, body: { expires_in_hours: 0 } }), 400, 'invalid_request', /expires_in_hours/);
      const reader = (await expect200(s, alice.key, 'POST', '/v1/api-keys', { name: 'reader', scopes: ['sheets:read'] })).api_key as string;
      assert.equal((await s.req('GET', `/v1/sheets/${id}/shares`, { key: reader })).status, 200);
      const denied = await s.req('POST', `/v1/sheets/${id}/shares`, { key: reader, body: {} });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.required_scope, 'sheets:write');
    });
  });
}

describe('share links: reads without a key are limited per client address', () => {
  const {
    s,
    users: { alice },
  } = useServer('sqlite', { users: { alice: 'pro' }, env: { SHARED_READ_LIMIT: '3' } });
  it('answers 429 with Retry-After past SHARED_READ_LIMIT, for known and unknown tokens alike', async () => {
    const id = (await expect200(s, alice.key, 'POST', '/v1/sheets', { title: 'Limited' })).sheet.id;
    const { token } = (await expect200(s, alice.key, 'POST', `/v1/sheets/${id}/shares`, {})).share;
    const statuses = [];
    for (const path of [`/v1/shared/${token}`, '/v1/shared/unknown', `/s/${token}`, `/v1/shared/${token}`]) statuses.push((await request(s.url, 'GET', path)).status);
    assert.deepEqual(statuses, [200, 404, 200, 429]);
    const r = await request(s.url, 'GET', `/s/${token}`);
    assertError(r, 429, 'rate_limited', /share links/);
    assert.ok(Number(r.headers.get('retry-after')) > 0);
  });
});

describe('share links in headless Chromium', { skip: browserSkip }, () => {
  const {
    s,
    users: { alice },
  } = useServer('sqlite', { users: { alice: 'pro' } });
  let ctx: BrowserContext | undefined;
  it('renders the sheet, runs nothing from hostile content, and a revoked link shows 404', async () => {
    const id = (await expect200(s, alice.key, 'POST', '/v1/sheets', { title: 'In the browser', content: HOSTILE })).sheet.id;
    const link = (await expect200(s, alice.key, 'POST', `/v1/sheets/${id}/shares`, {})).share;
    ctx = await openBrowser();
    try {
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const res = await page.goto(link.url);
      assert.equal(res?.status(), 200);
      assert.equal(await page.locator('h1').textContent(), 'In the browser');
      assert.equal(await page.locator('h2').textContent(), 'Plan');
      assert.equal(await page.locator('b').first().textContent(), 'bold');
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null), null);
      assert.equal(await page.locator('script, iframe, [onerror]').count(), 0);
      await page
        .locator('a', { hasText: 'link' })
        .click()
        .catch(() => undefined);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null), null);
      assert.deepEqual(errors, []);
      await expect200(s, alice.key, 'DELETE', `/v1/sheets/${id}/shares/${link.id}`);
      assert.equal((await page.goto(link.url))?.status(), 404);
    } finally {
      await ctx.close();
    }
  });
});
