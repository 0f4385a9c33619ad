import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { TOKEN_CAP } from '../../src/modules/search/substring/pg-token-index.js';
import { pruneVocab } from '../../src/modules/search/substring/pg-token-vocab-prune.js';
import { sqliteReaders } from '../../src/db/sqlite/sqlite-readers.js';

/**
 * Token index upkeep (issue 34, item 5). PostgreSQL: vocabulary rows no sheet uses are pruned, and a
 * pruner running beside writers that start using a token it is deleting never loses their index
 * entry (migration 029's advisory lock); a sheet past TOKEN_CAP distinct tokens keeps none and is
 * found by LIKE. SQLite: its FTS vocabulary is the index itself (nothing to prune), and the capped
 * sheet's search is checked there too.
 */
for (const dialect of dialects()) {
  describe(`search token upkeep [${dialect}]`, () => {
    const {
      s,
      users: { user },
    } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' }, users: { user: 'business' } });
    const db = () => s.c.db as Kysely<any>;
    const pg = dialect === 'postgres';

    const post = async (text: string) => {
      const res = await s.req('POST', '/v1/sheets', { key: user.key, body: { title: 'T', content: { col1: `<p>${text}</p>` } } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const put = async (id: string, text: string) => {
      const res = await s.req('PUT', `/v1/sheets/${id}`, { key: user.key, body: { content: { col1: `<p>${text}</p>` } } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const found = async (q: string, sort = '') => {
      const res = await s.req('GET', `/v1/sheets?limit=100&q=${encodeURIComponent(q)}${sort}`, { key: user.key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { ids: (res.body.sheets as { id: string }[]).map((x) => x.id).sort(), total: res.body.total as number };
    };
    const inVocab = async (token: string) => Number((await sql<{ n: string }>`select count(*) as n from sheet_token_vocab where token = ${token}`.execute(db())).rows[0].n);
    /** A whole pass; again if a batch gave up on the lock (the server's own pruner may hold it). */
    const prune = async () => {
      for (let i = 0; i < 20; i++) if (!(await pruneVocab(db(), 50)).skipped) return;
      assert.fail('pruning kept giving up on the lock');
    };

    it('a sheet past the token bound is stored, keeps a bounded token row, and is found by any of its words', async () => {
      // 21,000 distinct words (TOKEN_CAP + 1,000), then words only the tail holds.
      const words = Array.from({ length: TOKEN_CAP + 1000 }, (_, i) => `w${(46656 + i).toString(36)}`);
      const id = await post(`${words.join(' ')} tailonlyword 議事録の末尾`);
      const small = await post('tailonlyword in a small sheet');
      for (const q of ['tailonlyword', '議事録', '末尾', words[TOKEN_CAP + 500], words[10]]) {
        const want = q === 'tailonlyword' ? [id, small].sort() : [id];
        assert.deepEqual((await found(q)).ids, want, `q=${q}`);
        assert.deepEqual((await found(q, '&sort=relevance')).ids, want, `q=${q} by relevance`);
        assert.equal((await found(q)).total, want.length, `total for q=${q}`);
      }
      assert.deepEqual((await found('tailonlyword absentword')).ids, []);
      if (!pg) return;
      await s.c.searchIndexer.drain();
      const row = (await sql<{ n: number; capped: boolean }>`select cardinality(tokens) as n, capped from sheet_tokens where sheet_id = ${id}`.execute(db())).rows[0];
      assert.deepEqual(row, { n: 0, capped: true });
      assert.equal(await inVocab(words[TOKEN_CAP + 500]), 0, 'a capped sheet adds nothing to the vocabulary');
      // Edited back under the bound: tokens again, found through them.
      await put(id, 'now a short text with ordinaryword');
      await s.c.searchIndexer.drain();
      const after = (await sql<{ n: number; capped: boolean }>`select cardinality(tokens) as n, capped from sheet_tokens where sheet_id = ${id}`.execute(db())).rows[0];
      assert.equal(after.capped, false);
      assert.ok(after.n > 0 && after.n < 20);
      assert.deepEqual((await found('ordinaryword')).ids, [id]);
      assert.deepEqual((await found('tailonlyword')).ids, [small]);
    });

    it('pruning removes vocabulary no sheet uses and keeps what sheets use', { skip: !pg && 'SQLite: the FTS vocabulary is the index; nothing to prune' }, async () => {
      const a = await post('prunedword sharedkeepword');
      await post('sharedkeepword stays here');
      await s.c.searchIndexer.drain();
      await put(a, 'replacementword');
      await s.c.searchIndexer.drain();
      assert.equal(await inVocab('prunedword'), 1, 'an unused token lingers until pruned');
      await prune();
      assert.equal(await inVocab('prunedword'), 0);
      assert.ok((await inVocab('sharedkeepword')) >= 1);
      assert.ok((await inVocab('replacementword')) >= 1);
      assert.deepEqual((await found('replacementword')).ids, [a]);
      assert.deepEqual((await found('prunedword')).ids, []);
    });

    it('SQLite: the FTS vocabulary holds no trigram once no row holds it (nothing to prune)', { skip: pg && 'PostgreSQL: pruned above' }, async () => {
      const id = await post('qzjvocabword');
      const trigrams = async () => {
        await s.c.searchIndexer.drain();
        // The index file is attached on the reader threads only.
        return (await sqliteReaders(db())!.all(sql<{ n: number }>`select count(*) as n from search_index.sheets_fts_terms where term in ('qzj', 'zjv')`.compile(db())))[0].n;
      };
      assert.equal(await trigrams(), 2);
      await put(id, 'something else');
      assert.equal(await trigrams(), 0);
    });

    it('writers that start using tokens being pruned lose no index entry', { skip: !pg && 'PostgreSQL only' }, async () => {
      const ROUNDS = 6;
      const PER_ROUND = 30;
      const made: [string, string][] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const words = Array.from({ length: PER_ROUND }, (_, i) => `racer${round}x${i}q`);
        // The words enter the vocabulary, then no sheet uses them: each is a token a pruner deletes.
        const holder = await post(words.join(' '));
        await s.c.searchIndexer.drain();
        await put(holder, 'holder emptied');
        await s.c.searchIndexer.drain();
        let pruning = true;
        const pruner = (async () => {
          while (pruning) await pruneVocab(db(), 10);
        })();
        // The writers' sheets are tokenized, and their tokens added back, by the indexer while the pruner runs.
        const writers = await Promise.all(words.map(async (w) => [w, await post(`${w} again`)] as [string, string]));
        await s.c.searchIndexer.drain();
        pruning = false;
        await pruner;
        made.push(...writers);
      }
      await prune();
      for (const [word, id] of made) {
        assert.ok((await inVocab(word)) >= 1, `${word} lost from the vocabulary`);
        assert.deepEqual((await found(word)).ids, [id], `q=${word}`);
      }
    });
  });
}
