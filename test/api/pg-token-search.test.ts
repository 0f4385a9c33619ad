import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { tokenMatchKeys, tokenPlan } from '../../src/modules/search/substring/pg-token-index.js';
import { indexPendingTokens } from '../../src/modules/search/substring/pg-token-indexer.js';
import { rng } from '../../bench/content.js';

/**
 * PostgreSQL's token index (src/modules/search/substring/pg-token-index.ts) must find exactly the sheets whose text holds
 * every term, as the LIKE it replaced did: checked against `search_text.includes(term)` over texts
 * built to catch the edges (word and CJK runs touching, separators inside terms, runs longer than a
 * token window, LIKE wildcards), through creates, edits, trash, bulk inserts and parallel writers.
 */
const skip = !dialects().includes('postgres') && 'needs TEST_POSTGRES_URL';

const PIECES = ['mig', 'migration', 'premigrations', 'a_b', 'x', 'über', 'café', '東京', '京都', '東', '名古屋', '議事録', 'ー', 'テスト', '🚀', '100%', 'q'.repeat(70) + 'z', 'node', 'js', '한국'];
const SEPARATORS = [' ', '.', '-', '、', '。', '/', '', '', '\u3000'];

describe('PostgreSQL token index', { skip }, () => {
  const r = rng(42); // seeded: the same texts every run
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const text = () => Array.from({ length: 2 + Math.floor(r() * 8) }, () => pick(PIECES) + pick(SEPARATORS)).join('');

  // Everything ranked (no newest-first rule), so each query's whole match set can be listed.
  const {
    s,
    users: { user, other },
  } = useServer('postgres', { env: { SEARCH_RANK_MAX_MATCHES: '100000', RATE_LIMIT_DISABLED: '1' }, users: { user: 'business', other: 'business' } });

  const escapeHtml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const post = async (key: string, body: string) => {
    const res = await s.req('POST', '/v1/sheets', { key, body: { title: 'T', content: { col1: `<p>${escapeHtml(body)}</p>` } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.id as string;
  };
  /** What the LIKE answered: the owner's sheets in this state whose stored text holds every term. */
  const expected = async (terms: string[], trashed: boolean) => {
    const rows = await s.c.db
      .selectFrom('sheets')
      .select(['id', 'search_text'])
      .where('user_id', '=', user.userId)
      .where('trashed_at', trashed ? 'is not' : 'is', null)
      .execute();
    return rows
      .filter((row) => terms.every((t) => row.search_text.includes(t)))
      .map((row) => row.id)
      .sort();
  };
  const found = async (q: string, trashed: boolean) => {
    const res = await s.req('GET', `/v1/sheets?limit=100&q=${encodeURIComponent(q)}${trashed ? '&trashed=true' : ''}`, { key: user.key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { sheets: { id: string }[]; total: number };
  };
  /** Terms to try: substrings of stored texts (straddling runs and separators), pieces, and absent ones. */
  const queries = async () => {
    const rows = await s.c.db.selectFrom('sheets').select('search_text').where('user_id', '=', user.userId).execute();
    const qs = new Set<string>([
      'mig',
      'migration',
      'migrations',
      '東京',
      '東',
      '京',
      '名古屋',
      'a_b',
      'a%b',
      '100%',
      '%',
      '_',
      'q'.repeat(40),
      'q'.repeat(33) + 'z',
      'ー',
      'js',
      'node.js',
      '🚀',
      'absent',
      '東京 mig',
      '京都 x',
    ]);
    for (let i = 0; i < 60; i++) {
      const chars = [...pick(rows).search_text];
      const at = Math.floor(r() * chars.length);
      const term = chars
        .slice(at, at + 1 + Math.floor(r() * 6))
        .join('')
        .trim();
      if (term && !/\s/.test(term)) qs.add(term);
    }
    return [...qs];
  };
  const checkAll = async (trashed: boolean) => {
    for (const q of await queries()) {
      const want = await expected(q.split(' '), trashed);
      const got = await found(q, trashed);
      assert.equal(got.total, want.length, `total of q=${q} trashed=${trashed}`);
      if (want.length <= 100) assert.deepEqual(got.sheets.map((x) => x.id).sort(), want, `sheets of q=${q} trashed=${trashed}`);
    }
    // Past the last page the total is still told.
    const past = await s.req('GET', `/v1/sheets?limit=10&offset=1000&q=mig${trashed ? '&trashed=true' : ''}`, { key: user.key });
    assert.deepEqual([past.body.sheets.length, past.body.total], [0, (await expected(['mig'], trashed)).length]);
  };

  it('finds exactly the sheets holding every term, through creates, edits and the trash', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(await post(user.key, text()));
    for (let i = 0; i < 10; i++) await post(other.key, text());
    // Runs past the tokenizer's LONG_RUN, cut by its linear path.
    ids.push(await post(user.key, `${'東京都庁'.repeat(800)} ${'abcdefghij'.repeat(300)}x`));
    await checkAll(false); // some sheets still pending (found by their text), some tokenized
    await s.c.searchIndexer.drain();
    await checkAll(false);
    for (const q of ['庁東京', '都庁東京都', 'jabcdefghija', 'ghijx', '庁 abc']) assert.equal((await found(q, false)).total, (await expected(q.split(' '), false)).length, q);
    for (const id of ids.slice(0, 15)) {
      assert.equal((await s.req('PUT', `/v1/sheets/${id}`, { key: user.key, body: { content: { col1: `<p>${escapeHtml(text())}</p>` } } })).status, 200);
    }
    for (const id of ids.slice(10, 25)) assert.equal((await s.req('DELETE', `/v1/sheets/${id}`, { key: user.key })).status, 200);
    await checkAll(false);
    await checkAll(true);
    await s.c.searchIndexer.drain();
    await checkAll(false);
    await checkAll(true);
  });

  it('finds a sheet whose tokens are not written yet (pending) by its text, exactly', async () => {
    const owner = { workspaceId: user.personalWorkspace, trashed: false };
    // In one transaction, so the server's indexer cannot take the rows (they are locked) and nothing stays pending after.
    await s.c.db
      .transaction()
      .execute(async (trx) => {
        const marked = await sql`update sheet_tokens set tokens = '{}', pending = true where workspace_id = ${user.personalWorkspace} and not capped`.execute(trx);
        assert.ok(Number(marked.numAffectedRows) > 40);
        for (const q of await queries()) {
          const terms = q.split(' ');
          const plan = tokenPlan(terms);
          if (!plan) continue;
          const { rows } = await sql<{ k: string }>`select x.k from (${tokenMatchKeys(plan, owner)}) as x`.execute(trx);
          assert.deepEqual(rows.map((row) => row.k).sort(), await expected(terms, false), `q=${q}`);
        }
        throw new Error('rollback');
      })
      .catch((err: Error) => assert.equal(err.message, 'rollback'));
  });

  it('one process indexes at a time: a background batch finds another process indexing and leaves it the work', async () => {
    const id = await post(user.key, 'alonecheckword in a sheet');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const taken = new Promise<void>((r) => (locked = r));
    // Another process's indexer, mid-batch: it holds the indexer lock until its transaction ends.
    const otherIndexer = s.c.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(290032::bigint)`.execute(trx);
      locked();
      await held;
    });
    await taken;
    await sql`update sheet_tokens set pending = true, tokens = '{}' where sheet_id = ${id}`.execute(s.c.db);
    assert.equal(await indexPendingTokens(s.c.db, 100, { alone: true }), 0);
    release();
    await otherIndexer;
    await s.c.searchIndexer.drain(); // the server's own indexer (alone too) now takes it
    const { rows } = await sql<{ pending: boolean }>`select pending from sheet_tokens where sheet_id = ${id}`.execute(s.c.db);
    assert.equal(rows[0].pending, false);
  });

  it('the indexer skips a row a writer holds, and tokenizes its new text on a later batch', async () => {
    const id = await post(user.key, 'before the edit');
    await s.c.searchIndexer.drain();
    const row = async () => (await sql<{ pending: boolean; tokens: string[] }>`select pending, tokens from sheet_tokens where sheet_id = ${id}`.execute(s.c.db)).rows[0];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const writer = s.c.db.transaction().execute(async (trx) => {
      await sql`update sheets set search_text = 'heldeditword after the edit' where id = ${id}`.execute(trx);
      await held;
    });
    await new Promise((r) => setTimeout(r, 100));
    await indexPendingTokens(s.c.db, 100); // returns although the writer's row is locked
    const meanwhile = await row();
    assert.equal(meanwhile.pending, false, 'the writer has not committed: the row is as the last batch left it');
    assert.ok(meanwhile.tokens.includes('before') && !meanwhile.tokens.includes('heldeditword'));
    release();
    await writer;
    // Pending now, unless the server's own indexer (its sweep) already took the new text.
    const committed = await row();
    assert.ok(committed.pending ? committed.tokens.length === 0 : committed.tokens.includes('heldeditword'), JSON.stringify(committed));
    assert.deepEqual(
      (await found('heldeditword', false)).sheets.map((x) => x.id),
      [id],
      'found by its text meanwhile',
    );
    await s.c.searchIndexer.drain();
    const done = await row();
    assert.equal(done.pending, false);
    assert.ok(done.tokens.includes('heldeditword'));
    assert.deepEqual(
      (await found('heldeditword', false)).sheets.map((x) => x.id),
      [id],
    );
  });

  it('tokenizes a 250,000-character run in one pass', { timeout: 60_000 }, async () => {
    // Cut with substr() (quadratic on UTF-8), a 20,000-character run took 2.1 s; this one would take minutes.
    const id = await post(user.key, `${'会議室予約'.repeat(50_000)}`);
    assert.deepEqual(
      (await found('室予約会議', false)).sheets.map((x) => x.id),
      [id],
    );
    assert.equal((await s.req('DELETE', `/v1/sheets/${id}`, { key: user.key })).status, 200);
  });

  it('indexes every row of a statement that inserts several', async () => {
    const [a, b] = ['bulk_a', 'bulk_b'];
    await sql`insert into sheets (id, workspace_id, user_id, title, content, folder, tags, search_text, created_at, updated_at, trashed_at, version)
      select id || v.suffix, workspace_id, user_id, title, content, folder, tags, search_text || ' ' || v.word, created_at, updated_at, trashed_at, version
      from sheets, (values (${a}, 'wallaby'), (${b}, '袋鼠')) as v(suffix, word)
      where id = (select min(id) from sheets where user_id = ${user.userId} and trashed_at is null)`.execute(s.c.db);
    assert.equal((await found('wallaby', false)).total, 1);
    assert.equal((await found('袋鼠', false)).total, 1);
    assert.equal((await found('鼠', false)).total, 1);
  });

  it('keeps every parallel writer of new words findable, with no write failing', async () => {
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => post(user.key, `freshword${i}x sharedfresh 新語${i % 5} 共有新語`)));
    assert.equal((await found('sharedfresh', false)).total, 40);
    assert.equal((await found('共有新語', false)).total, 40);
    for (let i = 0; i < 40; i += 7)
      assert.deepEqual(
        (await found(`freshword${i}x`, false)).sheets.map((x) => x.id),
        [created[i]],
      );
    // Edits in parallel move half of them to other new words.
    const edits = await Promise.all(created.slice(0, 20).map((id, i) => s.req('PUT', `/v1/sheets/${id}`, { key: user.key, body: { content: { col1: `<p>editedword${i} 別語 sharedfresh</p>` } } })));
    assert.deepEqual(
      edits.map((e) => e.status),
      Array(20).fill(200),
    );
    assert.equal((await found('sharedfresh', false)).total, 40);
    assert.equal((await found('共有新語', false)).total, 20);
    assert.equal((await found('別語', false)).total, 20);
    assert.equal((await found('freshword3x', false)).total, 0);
    assert.deepEqual(
      (await found('editedword3', false)).sheets.map((x) => x.id),
      [created[3]],
    );
  });

  it('looks tokens up through the index even for a token in every sheet', async () => {
    await sql`analyze sheet_tokens`.execute(s.c.db);
    // "t" is each test sheet's title, so every sheet holds it; a pair in many sheets too.
    for (const terms of [['t'], ['sharedfresh'], ['東京']]) {
      const keys = tokenMatchKeys(tokenPlan(terms)!, { workspaceId: user.personalWorkspace, trashed: false });
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select count(*) from (${keys}) as x`.execute(s.c.db);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      assert.match(plan, /sheet_tokens_gin/, plan);
      // The token part (alias t); the part for capped sheets (t_1, past TOKEN_CAP) may scan a table this
      // small, and probes the partial index sheet_tokens_capped at 50,000 rows.
      assert.doesNotMatch(plan, /Seq Scan on sheet_tokens t\s/, plan);
    }
  });
});
