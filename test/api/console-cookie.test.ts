import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

/** Issue 16, point 8: the console cookie's name and flags per connection, and the purge of expired sessions. */
const HTTPS = { 'x-forwarded-proto': 'https' };

for (const dialect of dialects()) {
  describe(`console cookie hygiene [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-03-10T12:00:00.000Z'));
    const { s: proxied } = useServer(dialect, { clock, env: { TRUST_PROXY: '1' } });
    const { s: direct } = useServer(dialect);

    const signIn = (s: TestServer, key: string, headers: Record<string, string> = {}) => s.req('POST', '/console/session', { body: { api_key: key }, headers: { 'x-console': '1', ...headers } });
    const token = (setCookie: string) => /=([A-Za-z0-9_-]{43});/.exec(setCookie)![1];

    it('behind a trusted HTTPS proxy: __Host-sw_console, Secure, Path=/, no Domain; only that name is read', async () => {
      const u = await proxied.user();
      const r = await signIn(proxied, u.key, HTTPS);
      assert.equal(r.status, 200);
      const header = r.headers.get('set-cookie')!;
      assert.match(header, /^__Host-sw_console=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict; Secure$/);
      assert.doesNotMatch(header, /Domain=/i);
      const t = token(header);

      const ok = await proxied.req('GET', '/v1/sheets', { headers: { ...HTTPS, cookie: `__Host-sw_console=${t}`, 'x-console': '1' } });
      assert.equal(ok.status, 200);
      // A cookie without the prefix could have been set by a sibling subdomain: not read over HTTPS.
      assertError(await proxied.req('GET', '/v1/sheets', { headers: { ...HTTPS, cookie: `sw_console=${t}`, 'x-console': '1' } }), 401, 'unauthorized');
      assertError(await proxied.req('GET', '/console/session', { headers: { ...HTTPS, cookie: `sw_console=${t}` } }), 401, 'unauthorized');
      assert.equal((await proxied.req('GET', '/console/session', { headers: { ...HTTPS, cookie: `__Host-sw_console=${t}` } })).status, 200);

      const out = await proxied.req('DELETE', '/console/session', { headers: { ...HTTPS, cookie: `__Host-sw_console=${t}`, 'x-console': '1' } });
      assert.match(out.headers.get('set-cookie')!, /^__Host-sw_console=; Path=\/; Expires=Thu, 01 Jan 1970 [^;]+; HttpOnly; SameSite=Strict; Secure$/);
    });

    it('over plain http: sw_console without Secure (browsers refuse Secure cookies there)', async () => {
      const u = await proxied.user();
      const header = (await signIn(proxied, u.key)).headers.get('set-cookie')!;
      assert.match(header, /^sw_console=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
      const t = token(header);
      assert.equal((await proxied.req('GET', '/console/session', { headers: { cookie: `sw_console=${t}` } })).status, 200);
      assertError(await proxied.req('GET', '/console/session', { headers: { cookie: `__Host-sw_console=${t}` } }), 401, 'unauthorized');
    });

    it('ignores X-Forwarded-Proto unless TRUST_PROXY is set', async () => {
      const u = await direct.user();
      const header = (await signIn(direct, u.key, HTTPS)).headers.get('set-cookie')!;
      assert.match(header, /^sw_console=/);
      assert.doesNotMatch(header, /Secure/);
    });

    it('purges expired sessions (on sign-in, and by the hourly purge)', async () => {
      const u = await proxied.user();
      await signIn(proxied, u.key);
      await signIn(proxied, u.key);
      const rows = () => proxied.c.db.selectFrom('console_sessions').select('expires_at').where('user_id', '=', u.userId).execute();
      assert.equal((await rows()).length, 2);
      clock.advance(12 * 3600_000);
      assert.equal((await signIn(proxied, u.key)).status, 200);
      const left = await rows();
      assert.equal(left.length, 1, 'the two expired sessions are gone, the new one stays');
      assert.ok(left[0].expires_at > clock.now().toISOString());
      clock.advance(12 * 3600_000);
      assert.ok((await proxied.c.consoleSessions.purgeExpired()) >= 1);
      assert.equal((await rows()).length, 0);
    });
  });
}
