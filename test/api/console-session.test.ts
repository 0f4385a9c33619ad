import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';
import { EVENT_NAMES } from '../../src/events/catalog.js';
import { EVENT_NAMES as CONSOLE_EVENT_NAMES } from '../../console/src/events.js';

/** The console's sign-in exchange and the cookie path of /v1 auth, over plain HTTP (the browser suite is console.test.ts). */
execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

const cookieOf = (setCookie: string | null) => /sw_console=([^;]*)/.exec(setCookie ?? '')?.[1] ?? '';

for (const dialect of dialects()) {
  describe(`console sessions [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-03-10T12:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const signIn = async (apiKey: string) => {
      const r = await s.req('POST', '/console/session', { body: { api_key: apiKey }, headers: { 'x-console': '1' } });
      return { r, cookie: cookieOf(r.headers.get('set-cookie')) };
    };
    const withCookie = (cookie: string, xConsole = true) => ({ cookie: `sw_console=${cookie}`, ...(xConsole ? { 'x-console': '1' } : {}) });

    it('exchanges an API key for an httpOnly SameSite=Strict cookie and stores only its hash', async () => {
      const { r, cookie } = await signIn(alice.key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { success: true, user_id: alice.userId, plan: 'pro', expires_at: '2026-03-11T00:00:00.000Z' });
      const header = r.headers.get('set-cookie')!;
      assert.match(header, /HttpOnly/);
      assert.match(header, /SameSite=Strict/);
      assert.match(header, /Path=\//);
      assert.match(cookie, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(header.includes(alice.key), false, 'the API key is not in the cookie');
      const rows = await s.c.db.selectFrom('console_sessions').selectAll().where('user_id', '=', alice.userId).execute();
      assert.equal(rows.length, 1);
      assert.equal(JSON.stringify(rows).includes(cookie), false, 'only a hash of the session token is stored');

      const me = await s.req('GET', '/console/session', { headers: withCookie(cookie) });
      assert.equal(me.body.plan, 'pro');
      assert.equal(me.body.user_id, alice.userId);
    });

    it('rejects sign-in without X-Console or with a bad key', async () => {
      assertError(await s.req('POST', '/console/session', { body: { api_key: alice.key } }), 403, 'forbidden', /X-Console/);
      assertError((await signIn(`sk_${'x'.repeat(43)}`)).r, 401, 'unauthorized', /Unknown API key/);
      assertError((await signIn('nope')).r, 401, 'unauthorized');
      assertError(await s.req('GET', '/console/session'), 401, 'unauthorized');
    });

    it('authenticates /v1 with the cookie only together with X-Console: 1 (CSRF)', async () => {
      const { cookie } = await signIn(alice.key);
      const created = await s.req('POST', '/v1/sheets', { body: { title: 'via console' }, headers: withCookie(cookie) });
      assert.equal(created.status, 200);
      assert.equal((await s.events('sheet.created')).at(-1)!.workspace_id, alice.personalWorkspace);
      assertError(await s.req('POST', '/v1/sheets', { body: { title: 'csrf' }, headers: withCookie(cookie, false) }), 403, 'forbidden', /X-Console/);
      assertError(await s.req('GET', '/v1/sheets', { headers: withCookie('garbage') }), 401, 'unauthorized', /sign in again/);
      const bob = await s.user('free');
      const asBob = await s.req('GET', '/v1/sheets', { key: bob.key, headers: withCookie(cookie) });
      assert.equal(asBob.status, 200);
      assert.equal(asBob.body.total, 0, 'an Authorization header wins over the cookie');
    });

    it('signs out, expires after 12 hours, and ends when its API key is disabled', async () => {
      const a = await signIn(alice.key);
      const out = await s.req('DELETE', '/console/session', { headers: withCookie(a.cookie) });
      assert.equal(out.status, 200);
      assert.match(out.headers.get('set-cookie')!, /sw_console=;.*Expires=Thu, 01 Jan 1970/);
      assertError(await s.req('GET', '/v1/sheets', { headers: withCookie(a.cookie) }), 401, 'unauthorized');

      const b = await signIn(alice.key);
      clock.advance(12 * 3600_000 - 1);
      assert.equal((await s.req('GET', '/v1/sheets', { headers: withCookie(b.cookie) })).status, 200);
      clock.advance(1);
      assertError(await s.req('GET', '/v1/sheets', { headers: withCookie(b.cookie) }), 401, 'unauthorized', /expired/);
      assert.equal((await s.c.consoleSessions.purgeExpired()) >= 1, true);

      const extra = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'console only' } });
      const c = await signIn(extra.body.api_key);
      await s.req('DELETE', `/v1/api-keys/${extra.body.id}`, { key: alice.key });
      assertError(await s.req('GET', '/v1/sheets', { headers: withCookie(c.cookie) }), 401, 'unauthorized', /disabled/);
    });

    it('serves the built console with a strict CSP and no inline script', async () => {
      const r = await s.req('GET', '/console/');
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type')!, /text\/html/);
      assert.match(r.headers.get('content-security-policy')!, /script-src 'self';/);
      assert.equal(r.headers.get('x-frame-options'), 'DENY');
      const scripts = [...(r.body as string).matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      assert.ok(scripts.length >= 1);
      for (const [, attrs, body] of scripts) {
        assert.match(attrs, /src="\/console\/assets\/[^"]+\.js"/);
        assert.equal(body.trim(), '');
      }
      const js = /src="(\/console\/assets\/[^"]+\.js)"/.exec(r.body)![1];
      const asset = await s.req('GET', js);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('cache-control')!, /immutable/);
      assert.equal((await s.req('GET', '/console')).status, 200, '/console works without the slash');
    });

    it("console's event list matches the catalogue", () => {
      assert.deepEqual([...CONSOLE_EVENT_NAMES].sort(), [...EVENT_NAMES].sort());
    });
  });
}
