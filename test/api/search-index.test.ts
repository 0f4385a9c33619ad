import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { normalizeForSearch, searchTerms } from '../../src/modules/search/substring/search-text.js';
import { sheetSearchText } from '../../src/modules/sheets/sheets.view.js';
import { rng } from '../../bench/content.js';

/**
 * The search index (migration 008) must return exactly what a substring scan returns. These
 * sheets are random strings over a tiny alphabet, so one- and two-character terms occur at the
 * start, the end and in the middle of texts, and some texts are one or two characters long.
 */
const ALPHABET = ['a', 'b', 'é', 'x', '東', '京', '猫', 'の', ' ', '"', '%', '_'];

for (const dialect of dialects()) {
  describe(`search index [${dialect}]`, () => {
    const texts = new Map<string, string>();
    const r = rng(7);
    const randomText = (max: number) => Array.from({ length: 1 + Math.floor(r() * max) }, () => ALPHABET[Math.floor(r() * ALPHABET.length)]).join('');

    const {
      s,
      users: { user },
    } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' }, users: { user: 'business' } });
    before(async () => {
      const fixed = [
        ['東京', {}],
        ['猫', {}],
        ['ab', { col1: '<p>x東</p>' }],
        ['Title', { col1: '<p>ends with 京</p>' }],
      ] as const;
      for (const [title, content] of fixed) await make(title, { ...content });
      for (let i = 0; i < 60; i++) await make(randomText(4).trim() || 'x', { col1: `<p>${randomText(12)}</p><div>${randomText(6)}</div>` });
    });

    async function make(title: string, content: Record<string, string>) {
      const res = await s.req('POST', '/v1/sheets', { key: user.key, body: { title, content } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      texts.set(res.body.id, sheetSearchText(res.body.sheet.title, content));
    }

    async function check(q: string) {
      const terms = searchTerms(q);
      const want = [...texts]
        .filter(([, t]) => terms.every((term) => t.includes(term)))
        .map(([id]) => id)
        .sort();
      const res = await s.req('GET', `/v1/sheets?limit=100&q=${encodeURIComponent(q)}`, { key: user.key });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.sheets.map((x: { id: string }) => x.id).sort(), want, `q=${JSON.stringify(q)}`);
      assert.equal(res.body.total, want.length, `total for q=${JSON.stringify(q)}`);
    }

    const queries = () => {
      const qs = ['東京', '東', '京', '猫', 'の', 'a', 'ab', 'x東', '"', '""', '%', '_', 'é', 'É', 'ＡＢ', 'ends', 'ends 京', '京 a', 'zzz', '東京の猫'];
      for (let i = 0; i < 40; i++) qs.push(normalizeForSearch(randomText(3)));
      return qs.filter((q) => q.trim() !== '');
    };

    it('returns what a substring scan returns, totals included', async () => {
      for (const q of queries()) await check(q);
    });

    it('follows updates and deletions', async () => {
      const ids = [...texts.keys()];
      for (const id of ids.slice(0, 10)) {
        const content = { col1: `<p>${randomText(10)}</p>` };
        const res = await s.req('PUT', `/v1/sheets/${id}`, { key: user.key, body: { content } });
        assert.equal(res.status, 200);
        texts.set(id, sheetSearchText(res.body.sheet.title, res.body.sheet.content));
      }
      for (const id of ids.slice(10, 15)) {
        assert.equal((await s.req('DELETE', `/v1/sheets/${id}?permanent=true`, { key: user.key })).status, 200);
        texts.delete(id);
      }
      for (const q of queries()) await check(q);
    });

    it('pages a search with the total on every page, past the end too, and keeps trashed sheets apart', async () => {
      const q = 'a';
      const get = async (query: string) => {
        const res = await s.req('GET', `/v1/sheets?q=${encodeURIComponent(q)}&${query}`, { key: user.key });
        assert.equal(res.status, 200);
        return res.body as { sheets: { id: string }[]; total: number };
      };
      const all = (await get('limit=100')).sheets.map((x) => x.id);
      assert.ok(all.length > 6, 'enough matches to page');
      assert.equal(new Set(all).size, all.length, 'each match once (best first by default, ties newest first)');
      const byUpdated = (await get('limit=100&sort=updated')).sheets as unknown as { id: string; updatedAt: string }[];
      assert.deepEqual(new Set(byUpdated.map((x) => x.id)), new Set(all));
      assert.deepEqual(
        byUpdated.map((x) => x.updatedAt),
        byUpdated
          .map((x) => x.updatedAt)
          .sort()
          .reverse(),
        'sort=updated: last changed first',
      );
      for (let offset = 0; offset < all.length + 3; offset += 3) {
        const page = await get(`limit=3&offset=${offset}`);
        assert.deepEqual(
          page.sheets.map((x) => x.id),
          all.slice(offset, offset + 3),
          `offset ${offset}`,
        );
        assert.equal(page.total, all.length, `total at offset ${offset}`);
      }
      const [trashed] = all;
      assert.equal((await s.req('DELETE', `/v1/sheets/${trashed}`, { key: user.key })).status, 200);
      const active = await get('limit=100');
      assert.equal(active.total, all.length - 1);
      assert.ok(!active.sheets.some((x) => x.id === trashed));
      const bin = await get('limit=100&trashed=true');
      assert.deepEqual(
        bin.sheets.map((x) => x.id),
        [trashed],
      );
      assert.equal(bin.total, 1);
      assert.equal((await get('limit=100&trashed=true&offset=5')).total, 1, 'total past the end of the trash');
      assert.equal((await s.req('POST', `/v1/sheets/${trashed}/restore`, { key: user.key })).status, 200);
      assert.equal((await get('limit=100')).total, all.length, 'a restored sheet counts again');
    });

    it("counts only the caller's sheets: another account's matches change neither page nor total", async () => {
      const q = '東京';
      const mine = await s.req('GET', `/v1/sheets?limit=100&q=${encodeURIComponent(q)}`, { key: user.key });
      const other = await s.user('pro');
      for (let i = 0; i < 5; i++) {
        assert.equal((await s.req('POST', '/v1/sheets', { key: other.key, body: { title: `東京 ${i}` } })).status, 200);
      }
      const again = await s.req('GET', `/v1/sheets?limit=100&q=${encodeURIComponent(q)}`, { key: user.key });
      assert.deepEqual(again.body, mine.body);
      const theirs = await s.req('GET', `/v1/sheets?limit=2&q=${encodeURIComponent(q)}`, { key: other.key });
      assert.equal(theirs.body.total, 5);
      assert.equal(theirs.body.sheets.length, 2);
    });
  });
}
