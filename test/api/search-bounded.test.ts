import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { RANK_ALL } from '../../src/modules/search/search.engine.js';

/**
 * GET /v1/search past RANK_ALL (1,000) matches, where the ranking's work is bounded (docs/search.md, "At
 * 100,000 records"): totals stop at 1,000 with total_capped, a rare word still finds its one old record
 * among thousands of common ones, a query of common words only ranks the newest matches, and the bounded
 * paths keep another account's records out.
 */
const BATCHES = 5;
const PER_BATCH = 500;

for (const dialect of dialects()) {
  describe(`search past the bounded-work threshold [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { users: { alice: 'business', bob: 'business' } });
    const { alice, bob } = users;
    const search = async (key: string, query: string) => {
      const r = await s.req('GET', `/v1/search?${query}`, { key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { results: { id: string; title: string; type: string }[]; total: number; total_capped: boolean };
    };
    let rare = '';

    before(async () => {
      const oldest = await s.req('POST', '/v1/todos', { key: alice.key, body: { project: 'first', todos: [{ content: 'Deploy the zanzibar gateway', status: 'pending' }] } });
      assert.equal(oldest.status, 200, JSON.stringify(oldest.body));
      rare = oldest.body.todos[0].id;
      for (let b = 0; b < BATCHES; b++) {
        const todos = Array.from({ length: PER_BATCH }, (_, i) => ({ content: `Deploy service number ${b * PER_BATCH + i} to staging`, status: 'pending' }));
        const r = await s.req('POST', '/v1/todos', { key: alice.key, body: { project: `batch-${b}`, todos } });
        assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
      }
      const r = await s.req('POST', '/v1/todos', { key: bob.key, body: { project: 'bob', todos: [{ content: 'Deploy the zanzibar gateway for bob', status: 'pending' }] } });
      assert.equal(r.status, 200);
      // 2,502 records queued at once: past SEARCH_WAITS_FOR a search does not wait for the index (on SQLite its
      // thread may still be behind on a busy machine), and what is measured here is the ranking of all of them.
      await s.c.search.indexer.drain();
    });

    it('counts up to 1,000 and says so; pages to the last reachable result', async () => {
      const found = await search(alice.key, 'q=deploy&types=todo');
      assert.equal(found.total, 1000);
      assert.equal(found.total_capped, true);
      const last = await search(alice.key, 'q=deploy&types=todo&offset=950&limit=50');
      assert.equal(last.results.length, 50);
      const few = await search(alice.key, 'q=zanzibar');
      assert.deepEqual([few.total, few.total_capped], [1, false]);
    });

    it('a rare word finds its one old record among thousands of common matches', async () => {
      const found = await search(alice.key, `q=${encodeURIComponent('how do we deploy the zanzibar gateway')}`);
      assert.equal(found.results[0]?.id, rare);
      assert.ok(
        found.results.every((r) => !/for bob/.test(r.title)),
        'never another account’s record',
      );
    });

    it('common words only: the newest matches rank, and only the caller’s', async () => {
      const found = await search(alice.key, 'q=deploy%20staging&limit=50');
      assert.equal(found.results.length, 50);
      const numbers = found.results.map((r) => Number(/number (\d+)/.exec(r.title)?.[1]));
      assert.ok(
        numbers.every((n) => n >= BATCHES * PER_BATCH - RANK_ALL),
        `from the newest matches: ${numbers.slice(0, 10).join(', ')}`,
      );
      const bobs = await search(bob.key, 'q=deploy');
      assert.deepEqual(
        bobs.results.map((r) => r.title),
        ['Deploy the zanzibar gateway for bob'],
      );
      assert.equal(bobs.total, 1);
    });
  });
}
