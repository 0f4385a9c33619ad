import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ISO, assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';
import { EVENT_NAMES } from '../../src/events/catalog.js';

for (const dialect of dialects()) {
  describe(`webhooks API [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-04-01T09:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const create = (body: unknown, key = alice.key) => s.req('POST', '/v1/webhooks', { key, body });

    it('registers a webhook and returns the secret only once', async () => {
      const r = await create({ url: 'https://hooks.example.com/in', events: ['sheet.created', 'export.completed'], name: 'CI' });
      assert.equal(r.status, 200);
      assert.equal(r.body.success, true);
      const w = r.body.webhook;
      assert.deepEqual(Object.keys(w).sort(), ['created_at', 'created_by', 'disabled_at', 'disabled_reason', 'events', 'id', 'name', 'secret', 'status', 'url', 'workspace_id']);
      assert.equal(w.workspace_id, `wsp_${alice.userId.slice(4)}`, 'without workspace_id: the personal workspace');
      assert.equal(w.created_by, alice.userId, 'its maker');
      assert.match(w.id, /^wh_[0-9a-z]{26}$/);
      assert.equal(w.url, 'https://hooks.example.com/in');
      assert.deepEqual(w.events, ['sheet.created', 'export.completed']);
      assert.equal(w.name, 'CI');
      assert.equal(w.status, 'enabled');
      assert.equal(w.created_at, '2026-04-01T09:00:00.000Z');
      assert.equal(w.disabled_at, null);
      // whsec_ + 32 random bytes (43 base64url characters)
      assert.match(w.secret, /^whsec_[A-Za-z0-9_-]{43}$/);

      const list = await s.req('GET', '/v1/webhooks', { key: alice.key });
      assert.equal(list.status, 200);
      const listed = list.body.webhooks.find((x: any) => x.id === w.id);
      assert.ok(listed);
      assert.equal('secret' in listed, false, 'the listing never shows the secret');
      assert.equal(listed.created_by, alice.userId, 'the listing shows its maker');
      assert.equal(JSON.stringify(list.body).includes(w.secret), false);
      assert.match(listed.created_at, ISO);

      // At rest the secret is encrypted, not stored as sent.
      const row = await s.c.db.selectFrom('webhooks').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow();
      assert.equal(row.secret_enc.includes(w.secret), false);
      assert.match(row.secret_enc, /^v1:/);
      assert.equal(s.c.webhookDelivery.secrets.decrypt(row.secret_enc), w.secret);
    });

    it('generates the server key once into DATA_DIR with owner-only permissions', () => {
      const file = path.join(s.dataDir, 'secret.key');
      const st = fs.statSync(file);
      assert.equal(st.mode & 0o777, 0o600);
      assert.match(fs.readFileSync(file, 'utf8').trim(), /^[0-9a-f]{64}$/);
    });

    it('accepts * and every catalog event including export.completed', async () => {
      const star = await create({ url: 'https://hooks.example.com/all', events: ['*'] });
      assert.equal(star.status, 200);
      assert.deepEqual(star.body.webhook.events, ['*']);
      const all = await create({ url: 'https://hooks.example.com/each', events: EVENT_NAMES });
      assert.equal(all.status, 200);
      assert.deepEqual(all.body.webhook.events, EVENT_NAMES);
      assert.equal(all.body.webhook.name, null);
    });

    it('rejects bad input with 400 naming the field', async () => {
      assertError(await create({ url: 'http://hooks.example.com/in', events: ['*'] }), 400, 'invalid_request', /url.*https/);
      assertError(await create({ url: 'https://user:pw@hooks.example.com/in', events: ['*'] }), 400, 'invalid_request', /credentials/);
      assertError(await create({ url: 'https://user@hooks.example.com/in', events: ['*'] }), 400, 'invalid_request', /credentials/);
      assertError(await create({ url: 'not a url', events: ['*'] }), 400, 'invalid_request', /url/);
      assertError(await create({ url: 'https://hooks.example.com/in', events: ['sheet.exploded'] }), 400, 'invalid_request', /sheet\.exploded/);
      assertError(await create({ url: 'https://hooks.example.com/in', events: [] }), 400, 'invalid_request', /events/);
      assertError(await create({ url: 'https://hooks.example.com/in' }), 400, 'invalid_request', /events/);
      assertError(await create({ events: ['*'] }), 400, 'invalid_request', /url/);
    });

    it('refuses the free plan with 403 naming the Pro plan', async () => {
      const free = await s.user('free');
      assertError(await create({ url: 'https://hooks.example.com/in', events: ['*'] }, free.key), 403, 'plan_required', /Pro plan/);
      const list = await s.req('GET', '/v1/webhooks', { key: free.key });
      assert.deepEqual(list.body, { success: true, webhooks: [] });
    });

    it('deletes a webhook, then it is gone', async () => {
      const { body } = await create({ url: 'https://hooks.example.com/del', events: ['*'] });
      const r = await s.req('DELETE', `/v1/webhooks/${body.webhook.id}`, { key: alice.key });
      assert.deepEqual(r.body, { success: true, id: body.webhook.id, deleted: true });
      assertError(await s.req('DELETE', `/v1/webhooks/${body.webhook.id}`, { key: alice.key }), 404, 'not_found', body.webhook.id);
      const list = await s.req('GET', '/v1/webhooks', { key: alice.key });
      assert.equal(
        list.body.webhooks.some((x: any) => x.id === body.webhook.id),
        false,
      );
    });

    it('lists deliveries empty for a new webhook and validates paging', async () => {
      const { body } = await create({ url: 'https://hooks.example.com/d', events: ['*'] });
      const r = await s.req('GET', `/v1/webhooks/${body.webhook.id}/deliveries`, { key: alice.key });
      assert.deepEqual(r.body, { success: true, deliveries: [], total: 0 });
      assertError(await s.req('GET', `/v1/webhooks/${body.webhook.id}/deliveries?limit=-1`, { key: alice.key }), 400, 'invalid_request', /limit/);
      assertError(await s.req('POST', `/v1/webhooks/${body.webhook.id}/deliveries/dlv_nope/redeliver`, { key: alice.key }), 404, 'not_found', /dlv_nope/);
    });

    it('guards every id route: 401 without or with a bad key, 403 for another account, 404 for unknown ids', async () => {
      const { body } = await create({ url: 'https://hooks.example.com/sec', events: ['*'] });
      const id = body.webhook.id;
      const routes = [
        { method: 'DELETE', path: (x: string) => `/v1/webhooks/${x}` },
        { method: 'POST', path: (x: string) => `/v1/webhooks/${x}/enable` },
        { method: 'GET', path: (x: string) => `/v1/webhooks/${x}/deliveries` },
        { method: 'POST', path: (x: string) => `/v1/webhooks/${x}/test` },
        { method: 'POST', path: (x: string) => `/v1/webhooks/${x}/deliveries/dlv_x/redeliver` },
      ];
      for (const route of routes) await assertIdRouteSecurity(s, route, alice, id, 'wh_00000000000000000000000000');
      assertError(await s.req('GET', '/v1/webhooks'), 401, 'unauthorized');
      assertError(await s.req('POST', '/v1/webhooks', { body: { url: 'https://a.example', events: ['*'] } }), 401, 'unauthorized');
      // Still there: none of the refused requests touched it.
      const list = await s.req('GET', '/v1/webhooks', { key: alice.key });
      assert.equal(list.body.webhooks.find((x: any) => x.id === id).status, 'enabled');
    });
  });
}
