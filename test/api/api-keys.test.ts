import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ISO, assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

for (const dialect of dialects()) {
  describe(`api keys and authentication [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-01T00:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'free' } });

    it('issues a key shown once, stores only its hash, and lists it by prefix', async () => {
      const r = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'ci' } });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['api_key', 'expires_at', 'id', 'name', 'scopes', 'success', 'workspace_id']);
      assert.match(r.body.api_key, /^sk_[A-Za-z0-9_-]{43}$/);
      assert.match(r.body.id, /^key_/);
      assert.equal(r.body.name, 'ci');

      const stored = await s.c.db.selectFrom('api_keys').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow();
      assert.equal(stored.key_hash, createHash('sha256').update(r.body.api_key).digest('hex'));
      assert.equal(JSON.stringify(stored).includes(r.body.api_key), false, 'the full key is not stored');

      const list = await s.req('GET', '/v1/api-keys', { key: alice.key });
      assert.equal(list.status, 200);
      assert.equal(JSON.stringify(list.body).includes(r.body.api_key), false, 'the full key is never listed');
      const listed = list.body.api_keys.find((k: any) => k.id === r.body.id);
      assert.deepEqual(Object.keys(listed).sort(), ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'scopes', 'status', 'workspace_id']);
      assert.equal(listed.prefix, r.body.api_key.slice(0, 12));
      assert.equal(listed.status, 'active');
      assert.match(listed.created_at, ISO);
      assert.equal(listed.last_used_at, null);
      assert.equal(list.body.api_keys.length, 2, 'the account key plus the new one');

      const works = await s.req('GET', '/v1/sheets', { key: r.body.api_key });
      assert.equal(works.status, 200);
    });

    it('rejects a missing or bad name', async () => {
      assertError(await s.req('POST', '/v1/api-keys', { key: alice.key, body: {} }), 400, 'invalid_request', /name/);
      assertError(await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: ' ' } }), 400, 'invalid_request', /name/);
      assertError(await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 3 } }), 400, 'invalid_request', /name/);
    });

    it('401 for a missing, malformed, unknown or disabled key', async () => {
      assertError(await s.req('GET', '/v1/sheets'), 401, 'unauthorized', /Authorization/);
      assertError(await s.req('GET', '/v1/sheets', { headers: { authorization: 'Basic abc' } }), 401, 'unauthorized', /Bearer/);
      assertError(await s.req('GET', '/v1/sheets', { headers: { authorization: 'Bearer sk_short' } }), 401, 'unauthorized', /Malformed/);
      assertError(await s.req('GET', '/v1/sheets', { key: `sk_${'A'.repeat(43)}` }), 401, 'unauthorized', /Unknown/);
      const { body } = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'temp' } });
      assert.equal((await s.req('GET', '/v1/sheets', { key: body.api_key })).status, 200);
      const del = await s.req('DELETE', `/v1/api-keys/${body.id}`, { key: alice.key });
      assert.deepEqual(del.body, { success: true, id: body.id, status: 'disabled' });
      assertError(await s.req('GET', '/v1/sheets', { key: body.api_key }), 401, 'unauthorized', /disabled/);
      const listed = (await s.req('GET', '/v1/api-keys', { key: alice.key })).body.api_keys.find((k: any) => k.id === body.id);
      assert.equal(listed.status, 'disabled');
      const again = await s.req('DELETE', `/v1/api-keys/${body.id}`, { key: alice.key });
      assert.equal(again.status, 200, 'disabling twice is idempotent');
    });

    it('a key can disable itself and is refused on the very next request', async () => {
      const { body } = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'self' } });
      assert.equal((await s.req('DELETE', `/v1/api-keys/${body.id}`, { key: body.api_key })).status, 200);
      assertError(await s.req('GET', '/v1/api-keys', { key: body.api_key }), 401, 'unauthorized');
    });

    it('updates last_used_at at most once a minute', async () => {
      const { body } = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'touch' } });
      // The touch is written after the answer: wait for the value expected (up to 5 s on a loaded machine).
      const lastUsed = async (expected?: string) => {
        for (let waited = 0; ; waited += 50) {
          await new Promise((r) => setTimeout(r, 50));
          const v = (await s.c.db.selectFrom('api_keys').select('last_used_at').where('id', '=', body.id).executeTakeFirstOrThrow()).last_used_at;
          if (expected === undefined || v === expected || waited > 5000) return v;
        }
      };
      await s.req('GET', '/v1/sheets', { key: body.api_key });
      const first = await lastUsed(clock.now().toISOString());
      assert.equal(first, clock.now().toISOString());
      clock.advance(30_000);
      await s.req('GET', '/v1/sheets', { key: body.api_key });
      assert.equal(await lastUsed(), first, 'not rewritten within the minute');
      clock.advance(31_000);
      await s.req('GET', '/v1/sheets', { key: body.api_key });
      assert.equal(await lastUsed(clock.now().toISOString()), clock.now().toISOString());
    });

    it('401/403/404 on DELETE /api-keys/{id}', async () => {
      const { body } = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'matrix' } });
      await assertIdRouteSecurity(s, { method: 'DELETE', path: (id) => `/v1/api-keys/${id}` }, alice, body.id, 'key_00000000000000000000000000');
      const listed = (await s.req('GET', '/v1/api-keys', { key: alice.key })).body.api_keys.find((k: any) => k.id === body.id);
      assert.equal(listed.status, 'active', 'another account could not disable it');
    });

    it("lists only the caller's keys", async () => {
      const bob = await s.user('pro');
      const bobs = (await s.req('GET', '/v1/api-keys', { key: bob.key })).body.api_keys;
      assert.equal(bobs.length, 1);
    });
  });
}
