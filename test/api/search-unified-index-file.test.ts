import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect200, startServer, type TestServer } from '../helpers.js';
import { searchIndexFileOf } from '../../src/db/sqlite/search-index-file.js';
import indexBatch from '../../src/modules/search/search-index.worker.js';

/**
 * SQLite: GET /v1/search's index lives in the search index file beside the database (migration 043,
 * decision 0013), written by the search index thread; the database file keeps only the queue. These
 * cases check where the rows are, that writes sent all at once are all found, and that a lost index file
 * is rebuilt from every record at the next start.
 */
describe('unified search index in its own file [sqlite]', () => {
  const DB = 'sheet-workspace.db';
  const start = (dataDir?: string) => startServer('sqlite', { dataDir, env: { RATE_LIMIT_DISABLED: '1' } });
  const tables = (file: string) => {
    const conn = new SQLite(file, { readonly: true });
    try {
      return new Set((conn.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    } finally {
      conn.close();
    }
  };
  const indexed = (s: TestServer) => {
    const conn = new SQLite(searchIndexFileOf(path.join(s.dataDir, DB)), { readonly: true });
    try {
      return (conn.prepare(`select kind, record_id from search_docs order by record_id`).all() as { kind: string; record_id: string }[]).map((r) => `${r.kind}:${r.record_id}`);
    } finally {
      conn.close();
    }
  };
  const queued = async (s: TestServer) =>
    Number(
      (
        await s.c.db
          .selectFrom('search_queue' as never)
          .select((e) => e.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const search = async (s: TestServer, key: string, q: string) =>
    (await expect200(s, key, 'GET', `/v1/search?limit=50&q=${encodeURIComponent(q)}`)) as { results: { id: string; type: string }[]; total: number };

  it('the index is in the index file, not the database file, and a write is found by the next search', async () => {
    const s = await start();
    try {
      const { key } = await s.user('business');
      const sheet = (await expect200(s, key, 'POST', '/v1/sheets', { title: 'Walrus migration', content: { col1: '<p>moved the walrus cluster</p>' } })).id as string;
      const todo = (await expect200(s, key, 'POST', '/v1/todos', { project: 'zoo', todos: [{ content: 'feed the walrus', status: 'pending' }] })).todos[0].id as string;
      const found = await search(s, key, 'walrus');
      assert.deepEqual(found.results.map((r) => r.id).sort(), [sheet, todo].sort());
      assert.equal(await queued(s), 0, 'the search indexed the queue first, and the queue rows were dropped');
      const main = tables(path.join(s.dataDir, DB));
      assert.ok(!main.has('search_docs') && !main.has('search_fts'), 'the database file holds no unified index tables');
      assert.ok(main.has('search_queue'));
      assert.ok(tables(searchIndexFileOf(path.join(s.dataDir, DB))).has('search_fts'));
      assert.ok(indexed(s).includes(`sheet:${sheet}`) && indexed(s).includes(`todo:${todo}`));
    } finally {
      await s.close();
    }
  });

  it('sixty sheets posted at once are all indexed once, and a deleted one leaves the index', async () => {
    const s = await start();
    try {
      const { key } = await s.user('business');
      const ids = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => (await expect200(s, key, 'POST', '/v1/sheets', { title: `Narwhal ${i}`, content: { col1: `<p>narwhal note ${i}</p>` } })).id as string),
      );
      const found = await search(s, key, 'narwhal');
      assert.equal(found.total, 60);
      await s.c.search.indexer.drain();
      const sheets = indexed(s).filter((d) => d.startsWith('sheet:'));
      assert.deepEqual(sheets, [...new Set(sheets)], 'no record indexed twice');
      assert.equal(sheets.length, 60);
      const gone = ids[0];
      assert.equal((await s.req('DELETE', `/v1/sheets/${gone}`, { key })).status, 200);
      assert.equal((await search(s, key, 'narwhal')).total, 59);
      await s.c.search.indexer.drain();
      assert.ok(!indexed(s).includes(`sheet:${gone}`), 'a trashed sheet leaves the index');
    } finally {
      await s.close();
    }
  });

  it("a batch on the index thread stops at its text budget, one record at least, so big records never fill the thread's heap", async () => {
    const s = await start();
    const { key } = await s.user('business');
    const words = 'capybara river notes '.repeat(150); // ~3,000 characters a sheet
    for (let i = 0; i < 5; i++) await expect200(s, key, 'POST', '/v1/sheets', { title: `Capybara ${i}`, content: { col1: `<p>${words}</p>` } });
    await s.c.search.indexer.drain();
    await s.close();
    const file = path.join(s.dataDir, DB);
    const conn = new SQLite(file);
    conn.prepare(`insert into search_queue (kind, record_id) select 'sheet', id from sheets where title like 'Capybara %' order by id`).run();
    conn.close();
    const sizes: number[] = [];
    for (let n; (n = (await indexBatch({ index: 'unified', file, limit: 200, maxChars: 4_000 })).indexed) > 0;) sizes.push(n);
    assert.deepEqual(sizes, [1, 1, 1, 1, 1], 'one ~3,000-character sheet a batch under a 4,000-character budget');
    const again = new SQLite(file);
    again.prepare(`insert into search_queue (kind, record_id) select 'sheet', id from sheets where title like 'Capybara %'`).run();
    again.close();
    assert.equal((await indexBatch({ index: 'unified', file, limit: 200, maxChars: 1_000 })).indexed, 1, 'a record over the whole budget is still indexed, alone');
    assert.equal((await indexBatch({ index: 'unified', file, limit: 200, maxChars: 1 << 20 })).indexed, 4);
  });

  it('a missing index file is rebuilt from every record at the next start', async () => {
    let s = await start();
    try {
      const { key } = await s.user('business');
      await expect200(s, key, 'POST', '/v1/sheets', { title: 'Okapi', content: { col1: '<p>okapi sighting</p>' } });
      await expect200(s, key, 'POST', '/v1/knowledge?type=solutions', { title: 'Okapi build error', error: 'ERR_OKAPI', content: 'pin the okapi version' });
      assert.equal((await search(s, key, 'okapi')).total, 2);
      await s.close();
      const file = searchIndexFileOf(path.join(s.dataDir, DB));
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
      s = await start(s.dataDir);
      assert.ok((await queued(s)) >= 2, 'every record queued again');
      assert.equal((await search(s, key, 'okapi')).total, 2);
    } finally {
      await s.close();
    }
  });
});
