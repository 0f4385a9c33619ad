import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ISO, assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

/** User sparks: create, list, get, update, delete, limits and tenancy (no AI provider needed for any of it). */
for (const dialect of dialects()) {
  describe(`user sparks [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-04-01T09:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const create = (body: unknown, key = alice.key) => s.req('POST', '/v1/spark?action=create', { key, body });
    const list = async (key = alice.key) => (await s.req('GET', '/v1/spark', { key })).body.sparks as any[];

    it('creates a spark with defaults and lists it after the public ones, newest first', async () => {
      const r = await create({ name: '  Haiku  ', prompt: 'Rewrite as a haiku:\n{{content}}' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.success, true);
      assert.match(r.body.id, /^spk_[0-9a-z]{26}$/);
      assert.deepEqual(r.body.spark, {
        id: r.body.id,
        name: 'Haiku',
        description: '',
        icon: 'sparkles',
        category: 'custom',
        type: 'user',
        requires_ai: true,
        workspace_id: `wsp_${alice.userId.slice(4)}`,
        prompt: 'Rewrite as a haiku:\n{{content}}',
        created_at: '2026-04-01T09:00:00.000Z',
        updated_at: '2026-04-01T09:00:00.000Z',
      });
      clock.advance(1000);
      const second = await create({ name: 'Pirate', description: 'Arr', icon: 'anchor', category: 'writing', prompt: 'Say it like a pirate: {{ content }}' });
      assert.equal(second.body.spark.category, 'writing');
      const sparks = await list();
      const own = sparks.filter((x) => x.type === 'user');
      assert.deepEqual(
        own.map((x) => x.id),
        [second.body.id, r.body.id],
      );
      assert.deepEqual(own[0], { id: second.body.id, name: 'Pirate', description: 'Arr', icon: 'anchor', category: 'writing', type: 'user', requires_ai: true, workspace_id: `wsp_${alice.userId.slice(4)}` });
      assert.equal(
        sparks.findIndex((x) => x.type === 'user'),
        sparks.filter((x) => x.type === 'public').length,
        'user sparks follow the public ones',
      );
      const got = await s.req('GET', `/v1/spark/${r.body.id}`, { key: alice.key });
      assert.deepEqual(got.body, { success: true, spark: r.body.spark });
    });

    it('accepts a prompt without {{content}} (the text is appended when run) and enforces length limits', async () => {
      const plain = await create({ name: 'x', prompt: 'Summarize this' });
      assert.equal(plain.status, 200, JSON.stringify(plain.body));
      assert.equal(plain.body.spark.prompt, 'Summarize this');
      assert.equal((await create({ name: 'x', prompt: '{{contents}}' })).status, 200);
      assertError(await create({ name: 'x', prompt: '  \n ' }), 400, 'invalid_request', /prompt must not be empty/);
      assertError(await create({ prompt: '{{content}}' }), 400, 'invalid_request', /'name' is required/);
      assertError(await create({ name: 'x' }), 400, 'invalid_request', /'prompt' is required/);
      assertError(await create({ name: '   ', prompt: '{{content}}' }), 400, 'invalid_request', /name must not be empty/);
      assertError(await create({ name: 'n'.repeat(101), prompt: '{{content}}' }), 400, 'invalid_request', /name must be at most 100/);
      assertError(await create({ name: 'x', description: 'd'.repeat(501), prompt: '{{content}}' }), 400, 'invalid_request', /description must be at most 500/);
      assertError(await create({ name: 'x', prompt: `${'p'.repeat(10_000)}{{content}}` }), 400, 'invalid_request', /prompt must be at most 10000/);
      assertError(await create({ name: 'x', icon: '<svg onload=x>', prompt: '{{content}}' }), 400, 'invalid_request', /icon/);
      assertError(await create({ name: 'x', category: 'fun', prompt: '{{content}}' }), 400, 'invalid_request', /category must be one of writing, summarize, code, productivity, translate, custom/);
      assert.equal((await create({ name: 'n'.repeat(100), description: 'd'.repeat(500), prompt: `${'p'.repeat(9_989)}{{content}}` })).status, 200);
    });

    it('updates only the fields sent, and deletes', async () => {
      const { body } = await create({ name: 'Draft', prompt: 'A: {{content}}' });
      clock.advance(5000);
      const r = await s.req('PUT', `/v1/spark/${body.id}`, { key: alice.key, body: { name: 'Final', prompt: 'B: {{content}}', category: 'code' } });
      assert.equal(r.status, 200);
      assert.deepEqual(
        { name: r.body.spark.name, prompt: r.body.spark.prompt, category: r.body.spark.category, icon: r.body.spark.icon },
        { name: 'Final', prompt: 'B: {{content}}', category: 'code', icon: 'sparkles' },
      );
      assert.equal(r.body.spark.created_at, body.spark.created_at);
      assert.match(r.body.spark.updated_at, ISO);
      assert.notEqual(r.body.spark.updated_at, body.spark.updated_at);
      assert.deepEqual((await s.req('GET', `/v1/spark/${body.id}`, { key: alice.key })).body.spark, r.body.spark);
      const noPlaceholder = await s.req('PUT', `/v1/spark/${body.id}`, { key: alice.key, body: { prompt: 'no placeholder' } });
      assert.equal(noPlaceholder.body.spark.prompt, 'no placeholder');
      await s.req('PUT', `/v1/spark/${body.id}`, { key: alice.key, body: { prompt: 'B: {{content}}' } });
      assertError(await s.req('PUT', '/v1/spark/spk_summarize', { key: alice.key, body: { name: 'Mine' } }), 403, 'forbidden', /public spark/);
      assertError(await s.req('DELETE', '/v1/spark/spk_summarize', { key: alice.key }), 403, 'forbidden', /public spark/);

      const del = await s.req('DELETE', `/v1/spark/${body.id}`, { key: alice.key });
      assert.deepEqual(del.body, { success: true, id: body.id, deleted: true });
      assertError(await s.req('GET', `/v1/spark/${body.id}`, { key: alice.key }), 404, 'not_found');
      assertError(await s.req('POST', '/v1/spark', { key: alice.key, body: { spark_id: body.id, content: 'x' } }), 404, 'not_found');
      assert.equal(
        (await list()).some((x) => x.id === body.id),
        false,
      );
    });

    it("keeps accounts apart: another account's spark is absent from lists and 403 by id", async () => {
      const { body } = await create({ name: 'Secret', prompt: 'S: {{content}}' });
      const bob = await s.user('free');
      assert.equal(
        (await list(bob.key)).some((x) => x.type === 'user'),
        false,
      );
      assertError(await s.req('POST', '/v1/spark', { key: bob.key, body: { spark_id: body.id, content: 'x' } }), 403, 'forbidden', /another account/);
      await assertIdRouteSecurity(s, { method: 'GET', path: (id) => `/v1/spark/${id}` }, alice, body.id, 'spk_01aaaaaaaaaaaaaaaaaaaaaaaa');
      await assertIdRouteSecurity(s, { method: 'PUT', path: (id) => `/v1/spark/${id}`, body: { name: 'Taken' } }, alice, body.id, 'spk_01aaaaaaaaaaaaaaaaaaaaaaaa');
      await assertIdRouteSecurity(s, { method: 'DELETE', path: (id) => `/v1/spark/${id}` }, alice, body.id, 'spk_01aaaaaaaaaaaaaaaaaaaaaaaa');
      assert.equal((await s.req('GET', `/v1/spark/${body.id}`, { key: alice.key })).body.spark.name, 'Secret', 'untouched by the others');
    });

    it('caps an account at 100 sparks', async () => {
      const carol = await s.user('business');
      for (let i = 0; i < 100; i++) assert.equal((await create({ name: `s${i}`, prompt: '{{content}}' }, carol.key)).status, 200);
      assertError(await create({ name: 'one more', prompt: '{{content}}' }, carol.key), 400, 'invalid_request', /at most 100 sparks/);
      assert.equal((await list(carol.key)).filter((x) => x.type === 'user').length, 100);
      const victim = (await list(carol.key)).find((x) => x.type === 'user');
      await s.req('DELETE', `/v1/spark/${victim.id}`, { key: carol.key });
      assert.equal((await create({ name: 'one more', prompt: '{{content}}' }, carol.key)).status, 200);
    });
  });
}
