import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/**
 * A burst of creates, many in flight at once, then a search at once: the search finds every one of them,
 * though the background batches that index them rested while the requests kept the event loop busy
 * (PostgreSQL, BACKGROUND_BUSY_SHARE in src/modules/search/search.indexer.ts; SQLite indexes on its own
 * thread). Then, with nobody searching, the queue still empties: resting never stalls the drain. The
 * second search's word is in more records than PostgreSQL's cached record count (N, kept a minute from
 * the first search): its BM25 scores were NaN, and every result a 500, before df was capped at N.
 */
for (const dialect of dialects()) {
  describe(`search index after a burst of writes [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' }, users: { alice: 'business' } });
    const queued = async () => Number((await sql<{ n: number | string }>`select count(*) as n from search_queue`.execute(s.c.db)).rows[0].n);

    it('finds every sheet of a burst right after it, and the background drain empties the queue, beside a busy event loop', async () => {
      // A neighbour that keeps the event loop ~80 % busy, so background batches rest between them (PostgreSQL).
      const neighbour = setInterval(() => {
        const end = performance.now() + 8;
        while (performance.now() < end);
      }, 10);
      try {
        await burstThenSearch();
      } finally {
        clearInterval(neighbour);
      }
    });

    async function burstThenSearch() {
      const burst = 300;
      const created = await Promise.all(
        Array.from({ length: burst }, async (_, i) => {
          const r = await s.req('POST', '/v1/sheets', { key: users.alice.key, body: { title: `Burst note ${i}`, content: { col1: `<p>quokkaburst item ${i} of the load test</p>` } } });
          assert.equal(r.status, 200, JSON.stringify(r.body));
          return r.body.sheet.id as string;
        }),
      );
      assert.equal(new Set(created).size, burst);

      const r = await s.req('GET', '/v1/search?q=quokkaburst&types=sheet&limit=50', { key: users.alice.key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.total, burst, 'the search waited for every queued write before it');
      assert.ok(
        r.body.results.every((x: { id: string }) => created.includes(x.id)),
        'only the burst matches',
      );

      // A second burst that nobody searches for, more than one batch of 200: the paced background drain alone empties the queue.
      await Promise.all(Array.from({ length: 500 }, (_, i) => s.req('POST', '/v1/sheets', { key: users.alice.key, body: { title: `Later ${i}`, content: { col1: '<p>wombatlater</p>' } } })));
      const end = Date.now() + 30_000;
      while ((await queued()) > 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await queued(), 0, 'the queue emptied without a search');
      const later = await s.req('GET', '/v1/search?q=wombatlater&types=sheet', { key: users.alice.key });
      assert.equal(later.status, 200, JSON.stringify(later.body));
      assert.equal(later.body.total, 500);
    }
  });
}
