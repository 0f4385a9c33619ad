import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';
import { countVectors } from '../../src/modules/search/search.embed-store.js';
import { dialects } from '../helpers.js';
import { startFakeEmbeddings, type FakeEmbeddings } from '../fake-embeddings.js';
import { useServer } from '../server-fixture.js';

/**
 * Issue 55 point 4: optional semantic search. With EMBEDDINGS_URL and EMBEDDINGS_MODEL, records are
 * embedded in the background after each write and GET /v1/search fuses keyword and vector ranks; the
 * endpoint is a deterministic stand-in (test/fake-embeddings.ts) whose synonym groups make a
 * paraphrase sharing no word with its record near it. Without them the endpoint is never called.
 */
const MODEL = 'fake-embed-1';
const RECORD = { title: 'Bought an inexpensive vehicle for site visits', content: 'The team bought an inexpensive vehicle; the invoice is in the shared drive.' };
const PARAPHRASE = 'purchase cheap automobile';
const q = encodeURIComponent;

describe('embeddings configuration', () => {
  it('needs both EMBEDDINGS_URL and EMBEDDINGS_MODEL, and takes neither as off', () => {
    assert.equal(loadConfig({}).embeddings, undefined);
    assert.throws(
      () => loadConfig({ EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1' }),
      (e: Error) => e instanceof ConfigError && /EMBEDDINGS_MODEL/.test(e.message),
    );
    assert.throws(
      () => loadConfig({ EMBEDDINGS_MODEL: 'nomic-embed-text' }),
      (e: Error) => e instanceof ConfigError && /EMBEDDINGS_URL/.test(e.message),
    );
    assert.throws(() => loadConfig({ EMBEDDINGS_URL: 'not a url', EMBEDDINGS_MODEL: 'm' }), /EMBEDDINGS_URL must be an absolute URL/);
    assert.throws(() => loadConfig({ EMBEDDINGS_URL: 'http://x/v1', EMBEDDINGS_MODEL: 'm', EMBEDDINGS_DIMENSIONS: '0' }), /EMBEDDINGS_DIMENSIONS must be 1-8192/);
    assert.deepEqual(loadConfig({ EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1/', EMBEDDINGS_MODEL: 'nomic-embed-text' }).embeddings, {
      url: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      apiKey: undefined,
      dimensions: undefined,
      maxVectors: 20_000,
    });
  });
});

for (const dialect of dialects()) {
  describe(`search without embeddings [${dialect}]`, () => {
    let fake: FakeEmbeddings;
    before(async () => {
      fake = await startFakeEmbeddings();
    });
    after(() => fake.close());
    const { s, users } = useServer(dialect, { users: { alice: 'pro' } });

    it('never calls an endpoint and answers by keywords only', async () => {
      const { alice } = users;
      assert.equal(s.c.search.embedder, undefined);
      const r = await s.req('POST', '/v1/knowledge?type=solutions', { key: alice.key, body: RECORD });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const para = await s.req('GET', `/v1/search?q=${q(PARAPHRASE)}`, { key: alice.key });
      assert.equal(para.status, 200);
      assert.deepEqual(para.body.results, []);
      const kw = await s.req('GET', `/v1/search?q=${q('inexpensive vehicle')}`, { key: alice.key });
      assert.equal(kw.body.results[0]?.id, r.body.solution.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(fake.requests, 0);
      assert.equal(await countVectors(s.c.db, MODEL), 0);
    });
  });

  describe(`search with embeddings [${dialect}]`, () => {
    let fake: FakeEmbeddings;
    before(async () => {
      fake = await startFakeEmbeddings();
    });
    after(() => fake.close());
    const { s, users } = useServer(dialect, {
      users: { alice: 'pro', bob: 'pro' },
      lateOptions: () => ({ env: { EMBEDDINGS_URL: fake.url, EMBEDDINGS_MODEL: MODEL } }),
    });
    const ids = { car: '', bobCar: '', keys: '' };
    const search = async (key: string, query: string) => {
      const r = await s.req('GET', `/v1/search?q=${q(query)}`, { key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { results: { id: string; score: number }[]; total: number };
    };
    /** Waits (up to 10 s) until the background embedder has embedded `n` records. */
    const embedded = async (n: number) => {
      for (let i = 0; i < 200; i++) {
        if ((await countVectors(s.c.db, MODEL)) >= n && !s.c.search.embedder?.busy()) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.fail(`fewer than ${n} records were embedded within 10 s`);
    };

    before(async () => {
      const { alice, bob } = users;
      ids.car = (await s.req('POST', '/v1/knowledge?type=solutions', { key: alice.key, body: RECORD })).body.solution.id;
      ids.bobCar = (await s.req('POST', '/v1/knowledge?type=solutions', { key: bob.key, body: { title: 'Acquired a budget sedan', content: 'Bob acquired a budget sedan.' } })).body.solution.id;
      ids.keys = (await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: 'Rotated the signing keys of the staging cluster', summary: 'Rotated the signing keys.' } })).body.session.id;
      assert.ok(ids.car && ids.bobCar && ids.keys);
    });

    it('embeds writes in the background, not in the request', async () => {
      const before = fake.inputs;
      const r = await s.req('POST', '/v1/todos', { key: users.alice.key, body: { project: 'ops', todos: [{ content: 'Book the quick doctor visit', status: 'pending' }] } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await embedded(4);
      assert.ok(fake.inputs > before, 'the todo was sent to the endpoint after the write');
    });

    it("finds a paraphrase with no word in common, within the caller's reach only", async () => {
      await embedded(4);
      const alice = await search(users.alice.key, PARAPHRASE);
      assert.equal(alice.results[0]?.id, ids.car);
      assert.ok(!alice.results.some((h) => h.id === ids.bobCar), "another account's record never appears");
      const bob = await search(users.bob.key, PARAPHRASE);
      assert.deepEqual(
        bob.results.map((h) => h.id),
        [ids.bobCar],
      );
      const physician = await search(users.alice.key, 'rapid physician appointment');
      assert.ok(physician.results.length >= 1, JSON.stringify(physician));
    });

    it('still ranks keyword matches, fused with the vector ranks', async () => {
      const body = await search(users.alice.key, 'signing keys');
      assert.equal(body.results[0]?.id, ids.keys);
    });

    it('re-embeds an updated record', async () => {
      const r = await s.req('PUT', `/v1/knowledge/${ids.car}`, { key: users.alice.key, body: { title: 'Rotated the staging firewall rules', content: 'Nothing about transport any more.' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await embedded(4);
      const body = await search(users.alice.key, PARAPHRASE);
      assert.ok(!body.results.some((h) => h.id === ids.car), JSON.stringify(body));
    });

    it('re-embeds every record when the model changes', async () => {
      await embedded(4);
      // As if the records had been embedded by another model: a search compares only this model's vectors.
      await s.c.db
        .updateTable('search_vectors' as never)
        .set({ model: 'older-model' } as never)
        .execute();
      assert.equal(await countVectors(s.c.db, MODEL), 0);
      assert.deepEqual((await search(users.bob.key, PARAPHRASE)).results, []);
      const inputs = fake.inputs;
      s.c.search.embedder!.nudge();
      await embedded(4);
      assert.ok(fake.inputs >= inputs + 4, 'the records were sent again');
      assert.deepEqual(
        (await search(users.bob.key, PARAPHRASE)).results.map((h) => h.id),
        [ids.bobCar],
      );
    });

    it('answers by keywords when the endpoint is down', async () => {
      fake.down = true;
      try {
        const requests = fake.requests;
        const body = await search(users.alice.key, 'signing keys');
        assert.equal(body.results[0]?.id, ids.keys);
        assert.ok(fake.requests > requests, 'the query was sent, and failed');
        assert.deepEqual((await search(users.bob.key, PARAPHRASE)).results, []);
        // A write while the endpoint is down is embedded once it is back.
        await s.req('POST', '/v1/knowledge?type=solutions', { key: users.bob.key, body: { title: 'Speedy clinician callback', content: 'Callback arranged.' } });
      } finally {
        fake.down = false;
      }
      // The write made while the endpoint was down is embedded once it is back (retried with backoff).
      await embedded(5);
      assert.deepEqual((await search(users.bob.key, 'rapid physician')).results.length, 1);
    });

    it('never returns a deleted record by its vector', async () => {
      const r = await s.req('DELETE', `/v1/knowledge/${ids.bobCar}`, { key: users.bob.key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(!(await search(users.bob.key, PARAPHRASE)).results.some((h) => h.id === ids.bobCar));
    });
  });
}
