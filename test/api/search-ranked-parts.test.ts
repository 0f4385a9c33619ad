import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { useServer } from '../server-fixture.js';
import { sqliteReaders } from '../../src/db/sqlite/sqlite-readers.js';

/**
 * SQLite ranks a `q` search in rowid parts on the reader threads (owned-list.ts, rankedInParts): each
 * part's best rows and count, merged. Its pages must be the one ranked statement's: relevance, then
 * the newest row first among equal scores, the other account's and the trashed rows left out.
 */
describe('a ranked search scored in parts [sqlite]', () => {
  const {
    s,
    users: { user, other },
  } = useServer('sqlite', { users: { user: 'business', other: 'business' } });

  const post = async (key: string, i: number, html: string) => {
    const r = await s.req('POST', '/v1/sheets', { key, body: { title: `Note ${i}`, content: { col1: html } } });
    assert.equal(r.status, 200);
    return r.body.id as string;
  };
  const search = async (query: string) => {
    const r = await s.req('GET', `/v1/sheets?${query}`, { key: user.key });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { sheets: { id: string }[]; total: number };
  };

  it('pages through the matches in the order and with the total of the one ranked statement', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 36; i++) {
      // Four relevance levels and five lengths: many rows score the same, in both rowid halves.
      ids.push(await post(user.key, i, `<p>${'quokka '.repeat(1 + (i % 4))}${'filler words here '.repeat(i % 5)}</p>`));
      await post(other.key, i, '<p>quokka quokka quokka quokka</p>');
      if (i % 3 === 0) await post(user.key, 100 + i, '<p>no match in this one</p>');
    }
    const trashed = ids.splice(5, 2);
    for (const id of trashed) assert.equal((await s.req('DELETE', `/v1/sheets/${id}`, { key: user.key })).status, 200);
    await s.c.searchIndexer.drain();

    const readers = sqliteReaders(s.c.db)!;
    const expected = await readers.all(
      sql<{ id: string }>`select s.id from search_index.sheets_fts as f join sheets as s on s.rowid = f.rowid
        where f.sheets_fts match '"quokka"' and s.workspace_id = ${user.personalWorkspace} and s.trashed_at is null
        order by -bm25(f.sheets_fts) desc, f.rowid desc`.compile(s.c.db),
    );
    assert.equal(expected.length, 34);
    assert.deepEqual(new Set(expected.map((r) => r.id)), new Set(ids));

    const whole = await search('q=quokka&limit=100');
    assert.equal(whole.total, 34);
    assert.deepEqual(
      whole.sheets.map((x) => x.id),
      expected.map((r) => r.id),
    );
    const paged: string[] = [];
    for (let offset = 0; offset < 40; offset += 7) {
      const page = await search(`q=quokka&limit=7&offset=${offset}`);
      assert.equal(page.total, 34, `total at offset ${offset}`);
      paged.push(...page.sheets.map((x) => x.id));
    }
    assert.deepEqual(
      paged,
      expected.map((r) => r.id),
    );
    const past = await search('q=quokka&limit=5&offset=50');
    assert.deepEqual([past.sheets.length, past.total], [0, 34]);
  });
});
