import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/index.js';
import { loadServerKey } from '../../src/webhook-delivery/secrets.js';
import { createSecretBox } from '../../src/webhook-delivery/secrets.js';
import { createPgDatabase, startServer, type TestServer } from '../helpers.js';

// Issue 35.5: an instance that outgrew SQLite moves to PostgreSQL with every row, key and secret intact.
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Runs the command with the target given `how`: in DATABASE_URL, in a --url-file, or as the argument (visible in ps). */
async function copy(dataDir: string, url: string, how: 'env' | 'file' | 'arg' = 'env', extraArgs: string[] = []) {
  let args: string[] = [];
  if (how === 'arg') args = [url];
  if (how === 'file') {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-url-')), 'url');
    fs.writeFileSync(file, `${url}\n`, { mode: 0o600 });
    args = ['--url-file', file];
  }
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'copy-to-postgres', ...args, ...extraArgs], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: how === 'env' ? url : '' },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Audit finding 10: the target URL (with its password) need not be an argument, which every user of the machine sees in ps.
describe('copy-to-postgres: where the target URL comes from', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-copy-'));
  it('no target at all is a clear refusal naming DATABASE_URL and --url-file (exit 2)', async () => {
    const r = await copy(dataDir, '', 'env');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no target: give the PostgreSQL URL in DATABASE_URL, in a file with --url-file <path>, or as an argument \(visible in ps\)/);
  });
  it('an argument and --url-file together, an unreadable file and a file not holding a postgres URL are refused (exit 2)', async () => {
    const both = await copy(dataDir, 'postgres://u@127.0.0.1:1/x', 'file', ['postgres://u@127.0.0.1:1/y']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /either as an argument or with --url-file, not both/);
    const missing = await copy(dataDir, '', 'env', ['--url-file', path.join(dataDir, 'nope')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read --url-file .*nope/);
    const notPg = await copy(dataDir, 'mysql://u:secret@127.0.0.1/x', 'file');
    assert.equal(notPg.code, 2);
    assert.match(notPg.stderr, /must be a postgres:\/\/ or postgresql:\/\/ URL/);
    assert.equal(notPg.stderr.includes('secret'), false, 'the refusal does not echo the URL');
  });
});

describe('copy-to-postgres', { skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set' }, () => {
  let lite: TestServer;
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let key: string;
  let secret: string;
  const made: Record<string, any> = {};
  before(async () => {
    lite = await startServer('sqlite', { worker: true });
    ({ key } = await lite.user('business'));
    const post = async (p: string, body: object, headers?: Record<string, string>) => (await lite.req('POST', p, { key, body, headers })).body;
    made.sheet = await post('/v1/sheets', { title: 'Plan', content: { col1: '<p>東京都庁の議事録</p>' } }, { 'idempotency-key': 'copy-1' });
    await lite.req('PUT', `/v1/sheets/${made.sheet.id}`, { key, body: { content: { col2: '<p>more</p>' } } });
    made.session = await post('/v1/sessions', { title: 'S', summary: 'did things', project: 'p' });
    await post('/v1/todos', { project: 'p', todos: [{ content: 'a', status: 'pending' }] });
    const hook = await post('/v1/webhooks', { url: 'https://hooks.example.invalid/x', events: ['*'] });
    secret = hook.webhook.secret;
    made.second = await post('/v1/sheets', { title: 'Second' }); // queues a delivery to the webhook, which fails and waits for its retry
    // Past TOKEN_CAP distinct tokens: the set-wise fill must cap it as the trigger does (migration 029).
    made.capped = await post('/v1/sheets', { title: 'Big', content: { col1: `<p>${Array.from({ length: 20500 }, (_, i) => `w${(46656 + i).toString(36)}`).join(' ')} bigtailword</p>` } });
    for (let i = 0; i < 100 && !(await lite.c.db.selectFrom('deliveries').select('id').where('status', '=', 'pending').executeTakeFirst()); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await lite.close();
    // As if the source stopped between a commit and its fan-out: the copy must leave that event for the
    // webhook worker on PostgreSQL (webhooks are copied before the outbox: migration 034's trigger reads them).
    const file = new SQLite(path.join(lite.dataDir, 'sheet-workspace.db'));
    made.undispatched = file.prepare(`update outbox set dispatched_at = null where event = 'sheet.created' and data like ? returning id`).get(`%${made.second.id}%`);
    file.close();
    pgDb = await createPgDatabase();
  });
  after(async () => pgDb?.drop());

  it('copies every table with equal counts (target in DATABASE_URL), then serves the same data on PostgreSQL', async () => {
    const r = await copy(lite.dataDir, pgDb.url, 'env');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /warning/);
    assert.match(r.stdout, /^sheets\s+3\s+3$/m);
    assert.match(r.stdout, /^sheet_revisions\s+1\s+1$/m);
    assert.match(r.stdout, /^deliveries\s+[1-9]\d*\s+[1-9]\d*$/m);
    assert.match(r.stdout, /^idempotency_keys\s+1\s+1$/m);
    assert.doesNotMatch(r.stdout, /MISMATCH/);

    const pg = await startServer('postgres', { dataDir: lite.dataDir, databaseUrl: pgDb.url });
    try {
      const sheet = await pg.req('GET', `/v1/sheets/${made.sheet.id}`, { key });
      assert.equal(sheet.status, 200, 'the API key works against the copy');
      assert.deepEqual(sheet.body.sheet.content, { col1: '<p>東京都庁の議事録</p>', col2: '<p>more</p>' });
      assert.equal(sheet.body.sheet.version, 2);
      for (const q of ['東京', '議事録', '東京都庁']) assert.equal((await pg.req('GET', `/v1/sheets?q=${encodeURIComponent(q)}`, { key })).body.total, 1, q);
      assert.equal((await pg.req('GET', `/v1/sheets/${made.sheet.id}/revisions`, { key })).body.total, 1);
      assert.equal((await pg.req('GET', `/v1/sessions/${made.session.id}`, { key })).body.session.summary, 'did things');
      const replay = await pg.req('POST', '/v1/sheets', { key, body: { title: 'Plan', content: { col1: '<p>東京都庁の議事録</p>' } }, headers: { 'idempotency-key': 'copy-1' } });
      assert.equal(replay.body.id, made.sheet.id, 'idempotency records came along');
      const row = await pg.c.db.selectFrom('webhooks').select('secret_enc').executeTakeFirstOrThrow();
      assert.equal(createSecretBox(loadServerKey(pg.c.config)).decrypt(row.secret_enc), secret, 'webhook secrets decrypt with the same key');
      const waiting = await pg.c.db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).execute();
      assert.deepEqual(waiting, [{ id: made.undispatched.id }], 'the event not fanned out yet still waits for its webhook');
      assert.equal((await pg.req('GET', '/v1/stats', { key })).body.stats.sheets.total, 3);
      const [personal] = (await pg.req('GET', '/v1/workspaces', { key })).body.workspaces;
      assert.deepEqual([personal.personal, personal.role], [true, 'owner'], 'the personal workspace came along (made by migration 027 on SQLite, not on the empty target)');

      // The token index is filled set-wise after the copy (src/modules/search/substring/pg-token-bulk-load.ts): it must end as the
      // insert trigger would have left it, with the trigger and every index of a freshly migrated database back.
      const stale = await sql<{ n: string }>`select count(*) as n from sheets s left join sheet_tokens t on t.sheet_id = s.id
        where t.tokens is distinct from (case when t.capped then '{}' else sheet_tokens_of(s.search_text) end) or t.capped <> (s.id = ${made.capped.id})
          or t.workspace_id <> s.workspace_id or t.trashed <> (s.trashed_at is not null)`.execute(pg.c.db);
      assert.equal(stale.rows[0].n, '0');
      assert.deepEqual(
        (await pg.req('GET', '/v1/sheets?q=bigtailword', { key })).body.sheets.map((x: { id: string }) => x.id),
        [made.capped.id],
      );
      const vocab = await sql<{ n: string }>`select count(*) as n from (select unnest(tokens) from sheet_tokens) as x(w) where not exists (select 1 from sheet_token_vocab v where v.token = x.w)`.execute(
        pg.c.db,
      );
      assert.equal(vocab.rows[0].n, '0');
      const shape = (db: typeof pg.c.db) =>
        sql<{ d: string }>`select indexdef as d from pg_indexes where tablename in ('sheet_tokens', 'sheet_token_vocab')
          union all select tgname || ' ' || tgenabled::text from pg_trigger where tgrelid = 'sheets'::regclass and not tgisinternal order by 1`.execute(db);
      const fresh = await createPgDatabase();
      try {
        const migrated = await openDatabase({ dataDir: lite.dataDir, databaseUrl: fresh.url });
        const expected = (await shape(migrated.db)).rows;
        await migrated.close();
        assert.deepEqual((await shape(pg.c.db)).rows, expected);
      } finally {
        await fresh.drop();
      }
      const added = await pg.req('POST', '/v1/sheets', { key, body: { title: 'After', content: { col1: '<p>札幌の研修</p>' } } });
      assert.equal(added.status, 200);
      assert.equal((await pg.req('GET', `/v1/sheets?q=${encodeURIComponent('札幌')}`, { key })).body.total, 1, 'a sheet written after the copy is indexed');
    } finally {
      await pg.close();
    }
  });

  it("refuses another application's database before writing anything (no migration runs on it)", async () => {
    const other = await createPgDatabase();
    const { default: pgLib } = await import('pg');
    const client = new pgLib.Client({ connectionString: other.url });
    await client.connect();
    try {
      await client.query('create table invoices (id int)');
      const r = await copy(lite.dataDir, other.url, 'file');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /holds other tables \(invoices\)/);
      const { rows } = await client.query("select table_name from information_schema.tables where table_schema = 'public' order by 1");
      assert.deepEqual(
        rows.map((x) => x.table_name),
        ['invoices'],
      );
    } finally {
      await client.end();
      await other.drop();
    }
  });

  it('refuses a database that is not empty, and changes nothing; a password given as an argument still works, with a warning', async () => {
    const withPassword = new URL(pgDb.url);
    withPassword.password = 'ps-visible'; // the test server trusts local connections: the password is not checked
    const r = await copy(lite.dataDir, withPassword.href, 'arg');
    assert.equal(r.code, 2, `${r.stdout ?? ''}\n${r.stderr}`);
    assert.match(r.stderr, /warning: a password in the command line is visible to every user of this machine \(ps\); prefer DATABASE_URL=<url> or --url-file <path>/);
    assert.match(r.stderr, /the target database is not empty: users has 1 row/);
  });
});
