import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, type Res } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/** Issue 16, point 4: failed console sign-ins count toward the per-address failed-authentication limit. */
const BAD_KEY = `sk_${'x'.repeat(43)}`;

function assertLimited(res: Res) {
  assertError(res, 429, 'rate_limited', /failed authentications/);
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
}

for (const dialect of dialects()) {
  describe(`console sign-in limit [${dialect}]`, () => {
    // TRUST_PROXY lets each case use its own client address via X-Forwarded-For.
    const {
      s,
      users: { alice },
    } = useServer(dialect, { env: { AUTH_FAILURE_LIMIT: '3', TRUST_PROXY: '1' }, users: { alice: 'pro' } });

    const signIn = (from: string, apiKey: string) => s.req('POST', '/console/session', { body: { api_key: apiKey }, headers: { 'x-console': '1', 'x-forwarded-for': from } });
    const listSheets = (from: string, key?: string) => s.req('GET', '/v1/sheets', { key, headers: { 'x-forwarded-for': from } });

    it('answers 429 with Retry-After once an address has failed too often', async () => {
      const from = '203.0.113.10';
      for (let i = 0; i < 3; i++) assertError(await signIn(from, BAD_KEY), 401, 'unauthorized');
      assertLimited(await signIn(from, BAD_KEY));
      assertError(await signIn('203.0.113.11', BAD_KEY), 401, 'unauthorized', /Unknown API key/);
    });

    it('refuses even a valid key from an address over the limit, before looking it up', async () => {
      const from = '203.0.113.20';
      for (let i = 0; i < 3; i++) assertError(await signIn(from, BAD_KEY), 401, 'unauthorized');
      const refused = await signIn(from, alice.key);
      assertLimited(refused);
      assert.equal(refused.headers.get('set-cookie'), null, 'no session is opened');
      const sessions = await s.c.db.selectFrom('console_sessions').select('id').where('user_id', '=', alice.userId).execute();
      assert.equal(sessions.length, 0);
    });

    it('shares one count with bad API keys, in both directions', async () => {
      const a = '203.0.113.30';
      for (let i = 0; i < 3; i++) assertError(await listSheets(a, BAD_KEY), 401, 'unauthorized');
      assertLimited(await signIn(a, BAD_KEY));

      const b = '203.0.113.31';
      for (let i = 0; i < 3; i++) assertError(await signIn(b, BAD_KEY), 401, 'unauthorized');
      assertLimited(await listSheets(b, BAD_KEY));
    });

    it('leaves requests with a valid API key and good sign-ins alone', async () => {
      const from = '203.0.113.40';
      for (let i = 0; i < 3; i++) assertError(await signIn(from, BAD_KEY), 401, 'unauthorized');
      assertLimited(await signIn(from, BAD_KEY));
      for (let i = 0; i < 5; i++) assert.equal((await listSheets(from, alice.key)).status, 200);

      const good = '203.0.113.41';
      for (let i = 0; i < 6; i++) assert.equal((await signIn(good, alice.key)).status, 200, 'good sign-ins do not count');
    });
  });
}
