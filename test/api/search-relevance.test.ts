import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

const filler = (n: number) => Array.from({ length: n }, (_, i) => `lorem${i % 50} ipsum dolor`).join(' ');

for (const dialect of dialects()) {
  describe(`search relevance and concurrency [${dialect}]`, () => {
    const {
      s,
      users: { user },
    } = useServer(dialect, { users: { user: 'business' } });

    const post = async (title: string, html: string) => {
      const r = await s.req('POST', '/v1/sheets', { key: user.key, body: { title, content: { col1: html } } });
      assert.equal(r.status, 200);
      return r.body.id as string;
    };
    const search = async (query: string) => {
      const r = await s.req('GET', `/v1/sheets?${query}`, { key: user.key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { sheets: { id: string; updatedAt: string }[]; total: number };
    };

    it('ranks by relevance when q is given, and by last change with sort=updated', async () => {
      const best = await post('Quokka notes', '<p>quokka quokka quokka</p>');
      const weak = await post('Travel log', `<p>${filler(300)} one quokka ${filler(300)}</p>`);
      const middle = await post('Animals', `<p>${filler(20)} quokka and more quokka</p>`);
      await post('Nothing here', '<p>kangaroo</p>');
      // Rows not indexed yet rank after the indexed matches (rankedMatchKeys): rank once the indexer caught up.
      await s.c.searchIndexer.drain();
      const ranked = await search('q=quokka');
      assert.equal(ranked.total, 3);
      assert.deepEqual(
        ranked.sheets.map((x) => x.id),
        [best, middle, weak],
      );
      assert.deepEqual(
        (await search('q=quokka&sort=relevance')).sheets.map((x) => x.id),
        [best, middle, weak],
      );
      // Change the weakest match: it becomes the last changed.
      assert.equal((await s.req('PUT', `/v1/sheets/${weak}`, { key: user.key, body: { title: 'Travel log, edited' } })).status, 200);
      assert.deepEqual(
        (await search('q=quokka&sort=updated')).sheets.map((x) => x.id),
        [weak, middle, best],
      );
      assert.deepEqual(
        (await search('q=quokka&sort=relevance&limit=1&offset=2')).sheets.map((x) => x.id),
        [weak],
      );
      assert.equal((await search('q=quokka&limit=1&offset=2')).total, 3);
    });

    it('answers GET by id while five searches for a word in every sheet run', async () => {
      const sheet = await post('Fast one', '<p>hello</p>');
      await s.c.tx(async (trx) => {
        for (let i = 0; i < 3000; i++) {
          await s.c.sheets.createIn(trx, user.personalWorkspace, user.userId, { title: `Common ${i}`, content: { col1: `<p>commonword ${filler(8)} ${i}</p>` } });
        }
      });
      let searchesLeft = 5;
      const searches = Array.from({ length: 5 }, async () => {
        const r = await search('q=commonword&limit=100');
        assert.equal(r.total, 3000);
        assert.equal(r.sheets.length, 100);
        searchesLeft--;
      });
      const got = await s.req('GET', `/v1/sheets/${sheet}`, { key: user.key });
      assert.equal(got.status, 200);
      assert.equal(got.body.sheet.title, 'Fast one');
      const whileSearching = searchesLeft;
      await Promise.all(searches);
      // Not a timing bound: the searches were sent first and each reads 3,000 rows, so a search that
      // held the event loop would have finished before the GET was even read.
      assert.ok(whileSearching > 0, `GET by id answered after all ${5} searches`);
    });
  });
}
