import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { indexPendingTokens } from '../../src/modules/search/substring/pg-token-indexer.js';
import { sheetTokensOf } from '../../src/modules/search/substring/pg-tokenize.js';
import { createPgDatabase } from '../helpers.js';

/** Code point order: PostgreSQL's "C" collation on UTF-8. */
const byCodePoint = (a: string, b: string) => {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

/** Random texts made of the pieces the tokenizer treats differently, in runs short and past 1,024 characters. */
function randomTexts(count: number, seed = 7): string[] {
  let s = seed;
  const rand = (n: number) => ((s = (s * 1103515245 + 12345) % 2 ** 31), s % n);
  const pieces = [
    () => 'abcdefghijklmnopqrstuvwxyz0123456789_'.slice(rand(30)),
    () => 'kubernetes',
    () => ' ',
    () => '. ',
    () => '\n',
    () => '東京都庁の議事録',
    () => 'カタカナ',
    () => '한국어',
    () => '中'.repeat(1 + rand(4)),
    () => 'é'.repeat(1 + rand(40)),
    () => '😀🎉',
    () => '×÷«»—…',
    () => '\u3000、。',
    () => 'x'.repeat(20 + rand(120)),
  ];
  const texts: string[] = ['', ' ', '東', 'ab', '😀', 'a'.repeat(32), 'a'.repeat(33), 'a'.repeat(64), 'a'.repeat(65), 'a'.repeat(1024), 'a'.repeat(1025), '議'.repeat(1024), '議'.repeat(1025)];
  texts.push('w'.repeat(1000) + '😀'.repeat(60), '漢字'.repeat(600) + 'かな', 'long'.repeat(700) + ' ' + '字'.repeat(2000));
  while (texts.length < count) {
    let t = '';
    const n = 1 + rand(60);
    for (let i = 0; i < n; i++) t += pieces[rand(pieces.length)]();
    texts.push(t);
  }
  return texts;
}

test('the JavaScript tokenizer gives the tokens sheet_tokens_of gives, and the indexer stores them', { skip: !process.env.TEST_POSTGRES_URL }, async () => {
  const pgDb = await createPgDatabase();
  const pool = new pg.Pool({ connectionString: pgDb.url, max: 2 });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  try {
    const migrated = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
    assert.equal(migrated.error, undefined);
    const texts = randomTexts(400);
    const { rows } = await sql<{ i: number; toks: string[] }>`select t.i::int as i, sheet_tokens_of(t.text) as toks
      from unnest(${texts}::text[]) with ordinality as t(text, i)`.execute(db);
    for (const row of rows) {
      const text = texts[row.i - 1];
      const mine = [...new Set(sheetTokensOf(text))].sort(byCodePoint);
      assert.deepEqual(mine, row.toks, `text ${row.i - 1}: ${JSON.stringify(text.slice(0, 80))}`);
    }

    // The indexer: short texts tokenized here, a long one (and those past a batch's budget) by the database; all stored as the function's.
    const now = new Date().toISOString();
    const long = 'part'.repeat(5000) + ' 東京 ' + 'z'.repeat(40);
    // Twelve texts of ~12,000 characters: past the batch's budget for the event loop, the database tokenizes the rest.
    const big = Array.from({ length: 12 }, (_, i) => `${'東京都庁の議事録'.repeat(500)} ${'word'.repeat(2000)} ${i}`);
    const stored = [...texts.slice(0, 60), long, ...big];
    await db
      .insertInto('sheets')
      .values(stored.map((text, i) => ({ id: `s${i}`, workspace_id: 'u1', user_id: 'u1', title: 't', content: '{}', tags: '[]', search_text: text, created_at: now, updated_at: now })))
      .execute();
    while ((await indexPendingTokens(db, 16)) > 0);
    const { rows: check } = await sql<{
      same: boolean;
      pending: boolean;
    }>`select t.tokens = case when cardinality(sheet_tokens_of(s.search_text)) > 20000 then '{}' else sheet_tokens_of(s.search_text) end as same, t.pending
      from sheet_tokens as t join sheets as s on s.id = t.sheet_id`.execute(db);
    assert.equal(check.length, stored.length);
    assert.ok(
      check.every((r) => r.same && !r.pending),
      "every sheet holds the function's tokens",
    );
    const vocab = await sql<{ n: number }>`select count(*)::int as n from (select unnest(tokens) as w from sheet_tokens) as x
      where not exists (select 1 from sheet_token_vocab as v where v.token = x.w)`.execute(db);
    assert.equal(vocab.rows[0].n, 0, 'every stored token is in the vocabulary');
  } finally {
    await db.destroy();
    await pgDb.drop();
  }
});
