import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/** Issue 55: GET /v1/knowledge pages (offset) and says how many match (total), as sheets and sessions do. */
for (const dialect of dialects()) {
  describe(`knowledge paging [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { users: { alice: 'pro' } });
    const { alice } = users;
    const list = (query: string) => s.req('GET', `/v1/knowledge?${query}`, { key: alice.key });

    it('offset skips entries of each list and total counts every match beyond the page', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await s.req('POST', '/v1/knowledge?type=snippets', { key: alice.key, body: { title: `helper ${i}`, content: `fn${i}()` } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        made.push(r.body.snippet.id);
      }
      await s.req('POST', '/v1/knowledge?type=solutions', { key: alice.key, body: { title: 'helper crash', error: 'E', content: 'fix' } });
      const first = await list('type=snippets&limit=2');
      assert.equal(first.body.total, 5);
      const second = await list('type=snippets&limit=2&offset=2');
      const third = await list('type=snippets&limit=2&offset=4');
      const seen = [...first.body.snippets, ...second.body.snippets, ...third.body.snippets].map((x: any) => x.id);
      assert.deepEqual(seen, [...made].reverse());
      assert.equal((await list('type=snippets&offset=5')).body.snippets.length, 0);
      assert.equal((await list('limit=1')).body.total, 6);
      assert.equal((await list('q=helper&type=solutions')).body.total, 1);
      assertError(await list('offset=-1'), 400, 'invalid_request', /offset/);
      assertError(await list('offset=x'), 400, 'invalid_request', /offset/);
    });
  });
}
