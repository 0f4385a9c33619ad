import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { estimatedRows } from '../../src/modules/search/substring/pg-match.js';
import { searchTerms } from '../../src/modules/search/substring/search-text.js';
import { searchOwnedList } from '../../src/modules/search/substring/owned-list.js';
import { SHEETS_LIST } from '../../src/modules/sheets/sheets.list.repo.js';

/**
 * A query matching more than SEARCH_RANK_MAX_MATCHES of the owner's sheets and more than half of them
 * comes newest first (on SQLite its total counted in parts on the reader threads, on PostgreSQL
 * counted first by the token index); other queries keep their relevance order. The limit is set to 2
 * here so a handful of sheets crosses it.
 */
for (const dialect of dialects()) {
  describe(`search for a word in most sheets [${dialect}]`, () => {
    const ids: string[] = [];
    const {
      s,
      users: { user, other },
    } = useServer(dialect, { env: { SEARCH_RANK_MAX_MATCHES: '2' }, users: { user: 'business', other: 'business' } });

    const post = async (key: string, title: string, html: string) => {
      const r = await s.req('POST', '/v1/sheets', { key, body: { title, content: { col1: html } } });
      assert.equal(r.status, 200);
      return r.body.id as string;
    };
    const search = async (query: string, key = user.key) => {
      const r = await s.req('GET', `/v1/sheets?${query}`, { key });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { sheets: { id: string }[]; total: number };
    };

    it('orders a query matching most of the owner sheets newest first, with the exact total', async () => {
      // Interleaved with another owner's matching sheets, so both rowid halves hold rows of each.
      const texts = ['wombat wombat wombat', 'one wombat in a long text about other animals and plants', 'wombat', 'no match here', 'wombat and wombat', 'wombat at last'];
      for (const [i, text] of texts.entries()) {
        ids.push(await post(user.key, `Note ${i}`, `<p>${text}</p>`));
        await post(other.key, `Other ${i}`, '<p>wombat wombat</p>');
      }
      const matching = ids.filter((_, i) => i !== 3);
      const newestFirst = [...matching].reverse();
      const found = await search('q=wombat');
      assert.equal(found.total, 5);
      assert.deepEqual(
        found.sheets.map((x) => x.id),
        newestFirst,
      );
      assert.deepEqual(
        (await search('q=WOMBAT&sort=relevance&limit=2&offset=1')).sheets.map((x) => x.id),
        newestFirst.slice(1, 3),
      );
      const past = await search('q=wombat&limit=2&offset=10');
      assert.deepEqual([past.sheets.length, past.total], [0, 5]);
      // The other owner's sheets were neither counted nor listed.
      assert.equal((await search('q=wombat', other.key)).total, 6);
      // sort=updated still orders by last change: edit the oldest match.
      assert.equal((await s.req('PUT', `/v1/sheets/${ids[0]}`, { key: user.key, body: { title: 'Note 0, edited' } })).status, 200);
      assert.equal((await search('q=wombat&sort=updated')).sheets[0].id, ids[0]);
    });

    it('keeps the relevance order for a query matching half of the sheets or fewer', async () => {
      // Two matches: not more than the limit of 2.
      const best = await post(user.key, 'Echidna', '<p>echidna echidna echidna</p>');
      const weak = await post(user.key, 'Echidna once', `<p>${'filler text '.repeat(200)} echidna</p>`);
      // Ranked once indexed (SQLite: a row the indexer has not reached yet ranks after the indexed ones).
      await s.c.searchIndexer.drain();
      const found = await search('q=echidna');
      assert.equal(found.total, 2);
      assert.deepEqual(
        found.sheets.map((x) => x.id),
        [best, weak],
      );
    });

    it('counts trashed sheets on their own', async () => {
      for (const id of ids.slice(0, 4)) assert.equal((await s.req('DELETE', `/v1/sheets/${id}`, { key: user.key })).status, 200);
      // Live: Notes 4 and 5 match, 2 of 4 live sheets: not more than the limit, so by relevance ("wombat and wombat" first).
      const live = await search('q=wombat');
      assert.equal(live.total, 2);
      assert.deepEqual(
        live.sheets.map((x) => x.id),
        [ids[4], ids[5]],
      );
      // Trashed: Notes 0-2 match, 3 of the 4 trashed sheets: newest first.
      const trashed = await search('q=wombat&trashed=true');
      assert.equal(trashed.total, 3);
      assert.deepEqual(
        trashed.sheets.map((x) => x.id),
        [ids[2], ids[1], ids[0]],
      );
    });

    it('counts the same by checking each match for its owner as by taking the other rows away', { skip: dialect !== 'sqlite' && 'SQLite only' }, async () => {
      // Over the HTTP API the other rows (the other account's 6 sheets, this one's trash) are few, so
      // the total is every match less those; with no other rows allowed, each match is checked instead.
      for (const [q, trashed] of [
        ['wombat', false],
        ['wombat', true],
        ['echidna', false],
        ['note', false],
        ['note', true],
      ] as const) {
        const viaApi = await search(`q=${q}&limit=100${trashed ? '&trashed=true' : ''}`);
        const f = { workspaceId: user.personalWorkspace, trashed, terms: searchTerms(q), limit: 100, offset: 0 };
        const byOwner = await searchOwnedList(s.c.db, SHEETS_LIST, f, { rankMaxMatches: 2, maxOtherRows: 0 }, async (rows) => rows);
        assert.equal(byOwner.total, viaApi.total, `total of q=${q} trashed=${trashed}`);
        assert.deepEqual(
          byOwner.items.map((r) => r.id),
          viaApi.sheets.map((x) => x.id),
          `page of q=${q} trashed=${trashed}`,
        );
      }
    });

    it('counts sheets written a moment ago, before the search index has them, with those it has', { skip: dialect !== 'sqlite' && 'SQLite only' }, async () => {
      const indexed = [await post(user.key, 'Indexed 1', '<p>platypus</p>'), await post(user.key, 'Indexed 2', '<p>platypus</p>')];
      await s.c.searchIndexer.drain();
      await s.c.searchIndexer.close(); // from here on, writes stay queued
      const queued = [];
      for (let i = 0; i < 4; i++) queued.push(await post(user.key, `Queued ${i}`, '<p>platypus</p>'));
      const pending = await sql<{ n: number }>`select count(*) as n from sheets_search_queue`.execute(s.c.db);
      assert.equal(Number(pending.rows[0].n), 4);
      const found = await search('q=platypus&limit=100');
      assert.equal(found.total, 6);
      assert.deepEqual(
        found.sheets.map((x) => x.id),
        [...indexed, ...queued].reverse(),
      );
    });

    it('gives the same page and total before and after the tables are analyzed', { skip: dialect !== 'postgres' && 'PostgreSQL only' }, async () => {
      // 120 of the 124 live sheets hold "quokka": common. The token index counts it either way; only a
      // query of separators alone (LIKE) still asks the planner, whose estimate ANALYZE changes.
      const quokkas: string[] = [];
      for (let i = 0; i < 12; i++) {
        quokkas.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => post(user.key, `Quokka ${i}.${j}`, `<p>${'quokka '.repeat(1 + j)}</p>`)))));
      }
      quokkas.sort();
      const queries = ['q=quokka&limit=100', 'q=echidna', 'q=wombat&trashed=true'];
      const before = await Promise.all(queries.map((q) => search(q)));
      assert.deepEqual([before[0].total, before[0].sheets.map((x) => x.id)], [120, quokkas.reverse().slice(0, 100)]);
      assert.equal(before[1].total, 2);
      await sql`analyze sheets`.execute(s.c.db);
      const expected = await estimatedRows(s.c.db.selectFrom('sheets').select('id').where('search_text', 'like', '%quokka%'));
      assert.ok(expected > 60, `estimate after ANALYZE: ${expected}`);
      assert.deepEqual(await Promise.all(queries.map((q) => search(q))), before);
    });
  });
}
