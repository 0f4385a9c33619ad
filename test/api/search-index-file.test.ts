import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect200, startServer, type TestServer } from '../helpers.js';
import { attachSearchIndex, searchIndexFileOf } from '../../src/db/sqlite/search-index-file.js';
import { indexQueuedRows } from '../../src/modules/search/substring/sqlite-index-file.js';

/**
 * SQLite keeps its FTS index in a file of its own (src/modules/search/substring/sqlite-index-file.ts), built from the
 * database and checked against it at every start. Each case below leaves an index file that no
 * longer matches the database the way an operator or a crash would, restarts on the same data
 * directory, and checks that searches answer from the database as it is, with the queue worked off.
 */
describe('search index file [sqlite]', () => {
  const DB = 'sheet-workspace.db';
  const indexFiles = (dir: string) => {
    const f = searchIndexFileOf(path.join(dir, DB));
    return [f, `${f}-wal`, `${f}-shm`];
  };
  const start = (dataDir?: string) => startServer('sqlite', { dataDir, env: { RATE_LIMIT_DISABLED: '1' } });
  /** A server whose index is caught up, so that what the test checks comes from the index, not the queue. */
  async function restart(s: TestServer): Promise<TestServer> {
    await s.close();
    const next = await start(s.dataDir);
    await next.c.searchIndexer.drain();
    return next;
  }
  const queued = (s: TestServer) =>
    s.c.db
      .selectFrom('sheets_search_queue' as any)
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
  async function found(s: TestServer, key: string, q: string): Promise<string[]> {
    const body = await expect200(s, key, 'GET', `/v1/sheets?limit=100&q=${encodeURIComponent(q)}`);
    assert.equal(body.total, body.sheets.length);
    return body.sheets.map((x: { title: string }) => x.title).sort();
  }
  const post = async (s: TestServer, key: string, title: string, words: string) => (await expect200(s, key, 'POST', '/v1/sheets', { title, content: { col1: `<p>${words}</p>` } })).id as string;

  it('a missing index file is rebuilt from every sheet', async () => {
    let s = await start();
    try {
      const { key } = await s.user('business');
      for (let i = 0; i < 5; i++) await post(s, key, `t${i}`, `walrus ${i % 2 ? 'odd' : 'even'}`);
      await s.c.searchIndexer.drain();
      await s.close();
      for (const f of indexFiles(s.dataDir)) fs.rmSync(f, { force: true });
      s = await start(s.dataDir);
      assert.equal(Number((await queued(s)).n), 5, 'every sheet queued again');
      assert.deepEqual(await found(s, key, 'walrus odd'), ['t1', 't3']);
      await s.c.searchIndexer.drain();
      assert.equal(Number((await queued(s)).n), 0);
      assert.deepEqual(await found(s, key, 'walrus'), ['t0', 't1', 't2', 't3', 't4']);
      assert.deepEqual(await found(s, key, 'even'), ['t0', 't2', 't4']);
    } finally {
      await s.close();
    }
  });

  it("another database's index file is not used", async () => {
    let a = await start();
    const b = await start();
    try {
      const ka = (await a.user('business')).key;
      const kb = (await b.user('business')).key;
      // Same rowids in both files, different words.
      for (let i = 0; i < 3; i++) await post(a, ka, `a${i}`, 'aardvark');
      for (let i = 0; i < 3; i++) await post(b, kb, `b${i}`, 'bison');
      await Promise.all([a.c.searchIndexer.drain(), b.c.searchIndexer.drain()]);
      await Promise.all([a.close(), b.close()]);
      // As many sheets in both: B's mark fits A's queue, so only the origin tells the files apart.
      for (const [from, to] of indexFiles(b.dataDir).map((f, i) => [f, indexFiles(a.dataDir)[i]])) if (fs.existsSync(from)) fs.copyFileSync(from, to);
      a = await start(a.dataDir);
      await a.c.searchIndexer.drain();
      assert.deepEqual(await found(a, ka, 'aardvark'), ['a0', 'a1', 'a2']);
      assert.deepEqual(await found(a, ka, 'bison'), []);
    } finally {
      await a.close();
    }
  });

  it('a database older than its index (files copied back) gets a new index', async () => {
    let s = await start();
    const saved = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-index-file-'));
    try {
      const { key } = await s.user('business');
      await post(s, key, 'kept', 'capybara');
      await s.c.searchIndexer.drain();
      await s.close();
      for (const f of [DB, `${DB}-wal`]) if (fs.existsSync(path.join(s.dataDir, f))) fs.copyFileSync(path.join(s.dataDir, f), path.join(saved, f));
      s = await start(s.dataDir);
      // Written after the copy, then indexed: the index now holds rowids the copy does not have.
      for (let i = 0; i < 3; i++) await post(s, key, `later${i}`, 'dugong');
      s = await restart(s);
      await s.close();
      for (const f of [DB, `${DB}-wal`, `${DB}-shm`]) fs.rmSync(path.join(s.dataDir, f), { force: true });
      for (const f of fs.readdirSync(saved)) fs.copyFileSync(path.join(saved, f), path.join(s.dataDir, f));
      s = await start(s.dataDir);
      // The rowids (and queue seqs) after the copy's are handed out again, to sheets with other words.
      for (let i = 0; i < 4; i++) await post(s, key, `reused${i}`, 'eland');
      await s.c.searchIndexer.drain();
      assert.equal(Number((await queued(s)).n), 0);
      assert.deepEqual(await found(s, key, 'dugong'), []);
      assert.deepEqual(await found(s, key, 'eland'), ['reused0', 'reused1', 'reused2', 'reused3']);
      assert.deepEqual(await found(s, key, 'capybara'), ['kept']);
    } finally {
      await s.close();
      fs.rmSync(saved, { recursive: true, force: true });
    }
  });

  it('writes in flight while the thread indexes: every sheet found by its last words only', async () => {
    const s = await start();
    try {
      const { key } = await s.user('business');
      const word = (i: number, v: number) => `w${i}x${v}`.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
      const ids = await Promise.all(Array.from({ length: 120 }, (_, i) => post(s, key, `s${i}`, word(i, 0))));
      // Edits race the batches: each sheet's text changes three times, in flight together, some deleted.
      for (let v = 1; v <= 3; v++) {
        await Promise.all(ids.map((id, i) => expect200(s, key, 'PUT', `/v1/sheets/${id}`, { content: { col1: `<p>${word(i, v)}</p>` } })));
      }
      await Promise.all(ids.filter((_, i) => i % 10 === 0).map((id) => expect200(s, key, 'DELETE', `/v1/sheets/${id}?permanent=true`)));
      await s.c.searchIndexer.drain();
      assert.equal(Number((await queued(s)).n), 0);
      const file = path.join(s.dataDir, DB);
      const conn = new SQLite(file, { readonly: true });
      attachSearchIndex(conn, file);
      const indexed = (conn.prepare('select count(*) as n from search_index.sheets_fts').get() as { n: number }).n;
      const live = (conn.prepare('select count(*) as n from sheets').get() as { n: number }).n;
      conn.close();
      assert.equal(indexed, live, 'one index entry per sheet, none for a deleted one');
      for (const i of [1, 2, 3, 10, 57, 119]) {
        assert.deepEqual(await found(s, key, word(i, 3)), i % 10 === 0 ? [] : [`s${i}`], `last words of s${i}`);
        assert.deepEqual(await found(s, key, word(i, 2)), [], `older words of s${i}`);
      }
    } finally {
      await s.close();
    }
  });

  it('rows the index committed before a crash leave the queue at the next start', async () => {
    let s = await start();
    try {
      const { key } = await s.user('business');
      await s.c.searchIndexer.close(); // writes stay queued
      for (let i = 0; i < 4; i++) await post(s, key, `f${i}`, 'fennec');
      await s.close();
      // The indexer thread's batch committed to the index file; the process died before the queue's rows were dropped.
      const file = path.join(s.dataDir, DB);
      const conn = new SQLite(file);
      attachSearchIndex(conn, file);
      assert.deepEqual(indexQueuedRows(conn, 100, 1 << 20).indexed, 4);
      assert.equal((conn.prepare('select count(*) as n from sheets_search_queue').get() as { n: number }).n, 4);
      conn.close();
      s = await start(s.dataDir);
      assert.equal(Number((await queued(s)).n), 0, 'dropped at start: the index holds them');
      assert.deepEqual(await found(s, key, 'fennec'), ['f0', 'f1', 'f2', 'f3']);
    } finally {
      await s.close();
    }
  });
});
