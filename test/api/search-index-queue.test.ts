import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { searchIndexGeneration } from '../../src/modules/search/substring/pending.js';
import { searchTerms } from '../../src/modules/search/substring/search-text.js';
import { sqliteReaders } from '../../src/db/sqlite/sqlite-readers.js';
import { sheetSearchText } from '../../src/modules/sheets/sheets.view.js';

/**
 * SQLite indexes sheet text after the write commits (migration 033, src/modules/search/substring/sqlite-index-file.ts). Here
 * the indexer is stopped, so written rows stay queued, and searches must still answer exactly what
 * a substring scan answers: new rows found, changed rows found by their new text and not by the old
 * text the index still holds, a short term no indexed row has, totals and sort=relevance included.
 */
describe('search index queue [sqlite]', () => {
  let key: string;
  const texts = new Map<string, string>();

  const { s } = useServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1' } });
  before(async () => {
    key = (await s.user('business')).key;
  });

  async function create(title: string, col1: string) {
    const body = await expect200(s, key, 'POST', '/v1/sheets', { title, content: { col1 } });
    texts.set(body.id, sheetSearchText(title, { col1 }));
    return body.id as string;
  }
  const count = async (from: string) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.raw(from)}`.execute(s.c.db)).rows[0].n);
  // The index file is attached on the reader threads only.
  const indexedRows = async () => Number((await sqliteReaders(s.c.db)!.all(sql<{ n: number }>`select count(*) as n from search_index.sheets_fts`.compile(s.c.db)))[0].n);
  const liveRows = () => count('sheets');
  const queued = async () => Number((await sql<{ n: number }>`select count(*) as n from sheets_search_queue`.execute(s.c.db)).rows[0].n);

  async function check(q: string, sort = 'relevance') {
    const terms = searchTerms(q);
    const want = [...texts]
      .filter(([, t]) => terms.every((term) => t.includes(term)))
      .map(([id]) => id)
      .sort();
    const body = await expect200(s, key, 'GET', `/v1/sheets?limit=100&sort=${sort}&q=${encodeURIComponent(q)}`);
    assert.deepEqual(body.sheets.map((x: { id: string }) => x.id).sort(), want, `q=${q} sort=${sort}`);
    assert.equal(body.total, want.length, `total for q=${q}`);
    return body.sheets as { id: string }[];
  }
  const queries = ['alpha', 'kiwi', 'beta', 'alpha kiwi', '会議', '会', '鰻', 'al', 'zz', 'mango'];

  it('answers from the index and the queue together, exactly', async () => {
    const changed = await create('alpha kiwi', '<p>mango 会議</p>');
    for (let i = 0; i < 6; i++) await create(`alpha ${i}`, `<p>kiwi ${i} 会議室</p>`);
    await s.c.searchIndexer.drain();
    assert.equal(await queued(), 0);
    await s.c.searchIndexer.close(); // from here on, writes stay queued

    await expect200(s, key, 'PUT', `/v1/sheets/${changed}`, { title: 'beta', content: { col1: '<p>鰻</p>' } });
    texts.set(changed, sheetSearchText('beta', { col1: '<p>鰻</p>' }));
    const fresh = await create('alpha fresh', '<p>kiwi alpha alpha alpha 会議</p>');
    assert.equal(await queued(), 2);

    for (const q of queries) await check(q);
    await check('alpha', 'updated');
    // The row not indexed yet is still ranked, after the indexed matches.
    const ranked = await check('alpha');
    assert.equal(ranked.at(-1)?.id, fresh);

    await s.c.searchIndexer.drain();
    assert.equal(await queued(), 0);
    for (const q of queries) await check(q);
    // Indexed now, its three alphas in a short text rank it first.
    assert.equal((await check('alpha'))[0].id, fresh);
  });

  it('forgets a row deleted for good, queued or indexed', async () => {
    const gone = await create('queued then deleted', '<p>papaya</p>');
    assert.equal(await queued(), 1);
    await expect200(s, key, 'DELETE', `/v1/sheets/${gone}?permanent=true`);
    texts.delete(gone);
    assert.equal(await queued(), 1, 'its removal from the index is queued in its place');
    await check('papaya');
    const indexed = await create('indexed then deleted', '<p>papaya</p>');
    await s.c.searchIndexer.drain();
    assert.equal(await queued(), 0);
    assert.deepEqual(
      (await check('papaya')).map((x) => x.id),
      [indexed],
    );
    await expect200(s, key, 'DELETE', `/v1/sheets/${indexed}?permanent=true`);
    texts.delete(indexed);
    await check('papaya');
    await s.c.searchIndexer.drain();
    assert.equal(await indexedRows(), await liveRows(), 'the index holds no row of a deleted sheet');
    await check('papaya');
  });
  it('a 1-2 character term stays exact when the indexer commits between its plan and its statement', async () => {
    await s.c.searchIndexer.close(); // writes stay queued until drained here
    await create('race 東', '<p>東京 and 大阪</p>');
    await create('race 阪', '<p>大阪 only</p>');
    const readers = sqliteReaders(s.c.db);
    assert.ok(readers, 'searches run on reader threads');
    const all = readers.all;
    for (const q of ['東', '阪', '大阪']) {
      // The plan has read the vocabulary (the new rows only queued); the indexer commits before the statement runs.
      let raced = false;
      readers.all = async (query) => {
        if (!raced) {
          raced = true;
          const before = searchIndexGeneration(s.c.db);
          await s.c.searchIndexer.drain();
          assert.ok(searchIndexGeneration(s.c.db) > before || q !== '東', 'the first race moved rows into the index');
        }
        return all(query);
      };
      try {
        await check(q);
      } finally {
        readers.all = all;
      }
    }
  });
});
