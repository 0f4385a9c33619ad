import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Sheet } from '../../src/modules/sheets/sheets.schemas.js';
import { dialects, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';

async function text(s: TestServer, path: string, key: string) {
  const res = await fetch(s.url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/**
 * The plain page of GET /v1/sheets is built from the stored JSON of each sheet (SheetsService.listJson),
 * not through the response schema: it must be the very bytes the schema path gives, which answers the
 * same page when fields= names every field.
 */
for (const dialect of dialects()) {
  describe(`GET /v1/sheets plain page as stored JSON [${dialect}]`, () => {
    const { s } = useServer(dialect);

    it('answers byte for byte what the schema path answers: HTML, CJK, quotes, folders, tags, trashed sheets, empty pages', async () => {
      const { key } = await s.user();
      const allFields = `fields=${Object.keys(Sheet.shape).join(',')}`;
      const same = async (query: string) => {
        const plain = await text(s, `/v1/sheets?${query}`, key);
        const viaSchema = await text(s, `/v1/sheets?${query}${query ? '&' : ''}${allFields}`, key);
        assert.equal(plain.status, 200);
        assert.equal(plain.type, viaSchema.type);
        assert.equal(plain.body, viaSchema.body, query);
        return JSON.parse(plain.body);
      };
      assert.deepEqual(await same(''), { success: true, sheets: [], total: 0 });
      const bodies = [
        { title: 'plain' },
        { title: 'Ünïcödé "quotes" \\ and \u2028', content: { col1: '<h1>東京の会議</h1><ul><li>a &amp; b</li></ul>', col2: '<pre><code>x &lt; 1</code></pre>' }, folder: 'work/notes', tags: ['a', 'b'] },
        { title: 'three columns', content: { col3: '<p>3</p>', col1: '<p>1</p>', col10: '<p>10</p>' } },
      ];
      const ids: string[] = [];
      for (const b of bodies) ids.push((await s.req('POST', '/v1/sheets', { key, body: b })).body.sheet.id);
      await s.req('DELETE', `/v1/sheets/${ids[0]}`, { key });
      const page = await same('');
      assert.equal(page.total, 2);
      assert.deepEqual(
        page.sheets.map((x: { id: string }) => x.id),
        [ids[2], ids[1]],
      );
      assert.equal(page.sheets[1].content.col1, '<h1>東京の会議</h1><ul><li>a &amp; b</li></ul>');
      await same('limit=1');
      await same('limit=1&offset=1');
      await same('offset=5');
      const trashed = await same('trashed=true');
      assert.deepEqual(
        trashed.sheets.map((x: { id: string }) => x.id),
        [ids[0]],
      );
    });

    it('q and fields still take the schema path (snippets, chosen fields)', async () => {
      const { key } = await s.user();
      await s.req('POST', '/v1/sheets', { key, body: { title: 'alpha', content: { col1: '<p>kubernetes alpha</p>' } } });
      const picked = JSON.parse((await text(s, '/v1/sheets?fields=title', key)).body);
      assert.deepEqual(Object.keys(picked.sheets[0]).sort(), ['id', 'title']);
      const found = JSON.parse((await text(s, '/v1/sheets?q=kubernetes', key)).body);
      assert.equal(found.total, 1);
      assert.match(found.sheets[0].snippet, /kubernetes/);
    });
  });
}
