import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { tokenMatchKeys, tokenPlan } from '../../src/modules/search/substring/pg-token-index.js';
import { indexPendingTokens } from '../../src/modules/search/substring/pg-token-indexer.js';
import { createPgDatabase } from '../helpers.js';

/**
 * A PostgreSQL database migrated up to 025 has migration 022's frozen tokenizer (CJK pairs only), and
 * the search planner of today looks 3-character CJK words up as tokens of 3: before 026 議事録 found
 * nothing there. 026 redefines the tokenizer and rebuilds the tokens of sheets already written.
 */
test('migration 026 gives sheets tokenized by 022 the tokens search looks for', { skip: !process.env.TEST_POSTGRES_URL }, async () => {
  const pgDb = await createPgDatabase();
  const pool = new pg.Pool({ connectionString: pgDb.url, max: 2 });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  try {
    const migrator = new Migrator({ db, provider: migrationProvider });
    const to025 = await migrator.migrateTo('025_key_issuing_grant');
    assert.equal(to025.error, undefined);
    const now = new Date().toISOString();
    const text = '東京都庁の議事録 kubernetes';
    await db.insertInto('sheets').values({ id: 's1', user_id: 'u1', title: 't', content: '{}', tags: '[]', search_text: text, created_at: now, updated_at: now }).execute();
    const hits = async (term: string) => (await tokenMatchKeys(tokenPlan([term])!).execute(db)).rows.map((r) => r.k);
    const tokens = async () => (await sql<{ tokens: string[] }>`select tokens from sheet_tokens where sheet_id = 's1'`.execute(db)).rows[0]!.tokens;

    assert.ok((await tokens()).includes('議事'), '022 wrote CJK pairs');
    assert.ok(!(await tokens()).includes('議事録'), '022 wrote no 3-character pieces');
    // (Today's search query is not run here: it reads sheet_tokens.capped, which migration 029 adds.)

    const rest = await migrator.migrateToLatest();
    assert.equal(rest.error, undefined);
    assert.deepEqual(
      rest.results?.map((r) => r.migrationName).filter((n) => n === '026_tokenizer_cjk_triples'),
      ['026_tokenizer_cjk_triples'],
    );
    assert.ok((await tokens()).includes('議事録'));
    for (const term of ['東京', '議事録', '東京都庁', 'kubernetes']) assert.deepEqual(await hits(term), ['s1'], term);
    const vocab = await sql<{ n: number }>`select count(*)::int as n from sheet_token_vocab where token = '都庁の'`.execute(db);
    assert.equal(vocab.rows[0]!.n, 1, 'new tokens join the vocabulary');
    const opts = await sql<{ o: string[] }>`select reloptions as o from pg_class where relname = 'sheet_tokens_gin'`.execute(db);
    assert.deepEqual(opts.rows[0]!.o, ['gin_pending_list_limit=256']);

    // A sheet written after 026 gets the new tokens from the redefined function: found at once (pending,
    // by LIKE: migration 032), then through its tokens once the indexer ran.
    await db.insertInto('sheets').values({ id: 's2', workspace_id: 'u1', user_id: 'u1', title: 't', content: '{}', tags: '[]', search_text: '新しい議事録', created_at: now, updated_at: now }).execute();
    assert.deepEqual((await hits('議事録')).sort(), ['s1', 's2']);
    assert.equal(await indexPendingTokens(db, 10), 1);
    const s2 = (await sql<{ tokens: string[] }>`select tokens from sheet_tokens where sheet_id = 's2'`.execute(db)).rows[0]!.tokens;
    assert.ok(s2.includes('議事録'));
    assert.deepEqual((await hits('議事録')).sort(), ['s1', 's2']);
  } finally {
    await db.destroy();
    await pgDb.drop();
  }
});
