import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { systemClock } from '../src/clock.js';
import { createApiKeysRepo } from '../src/modules/api-keys/api-keys.repo.js';
import { createApiKeysService, hashKey } from '../src/modules/api-keys/api-keys.service.js';
import { useServer } from './server-fixture.js';

/**
 * On SQLite, keys that authenticated are kept in memory and checked against one counter row
 * (migration 019) instead of being looked up on every request. Every change an authentication can
 * see must still count on the very next request, also when another process makes it: here a second
 * connection to the same file stands in for that process, so nothing in the server hears of it.
 */
describe('authenticated keys kept in memory [sqlite]', () => {
  let other: SQLite.Database;
  const { s, beforeClose } = useServer('sqlite');
  before(async () => {
    other = new SQLite(path.join(s.dataDir, 'sheet-workspace.db'));
    other.pragma('busy_timeout = 5000');
  });
  beforeClose(async () => {
    other.close();
  });

  const status = async (key: string, urlPath = '/v1/sheets?limit=1') => (await s.req('GET', urlPath, { key })).status;

  it('a key disabled by another process fails on the next request', async () => {
    const { key } = await s.user();
    assert.equal(await status(key), 200);
    assert.equal(await status(key), 200);
    other.prepare(`update api_keys set status = 'disabled' where key_hash = ?`).run(hashKey(key));
    const res = await s.req('GET', '/v1/sheets?limit=1', { key });
    assert.equal(res.status, 401);
    assert.match(res.body.error, /disabled/);
  });

  it('a plan changed by another process counts on the next request', async () => {
    const { key, userId } = await s.user('free');
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push(await status(key));
    assert.deepEqual([codes.slice(0, 30).every((c) => c === 200), codes[30]], [true, 429], 'the Free plan allows 30 a minute');
    other.prepare(`update users set plan = 'business' where id = ?`).run(userId);
    assert.equal(await status(key), 200, 'the Business plan allows 1,000 a minute');
  });

  it('narrowed scopes, an expiry, a deleted key or account count on the next request', async () => {
    const a = await s.user();
    assert.equal(await status(a.key), 200);
    other.prepare(`update api_keys set scopes = '["sheets:write"]' where key_hash = ?`).run(hashKey(a.key));
    assert.equal(await status(a.key), 403);

    const b = await s.user();
    assert.equal(await status(b.key), 200);
    other.prepare(`update api_keys set expires_at = '2000-01-01T00:00:00.000Z' where key_hash = ?`).run(hashKey(b.key));
    assert.equal(await status(b.key), 401);

    const c = await s.user();
    assert.equal(await status(c.key), 200);
    other.prepare(`delete from api_keys where key_hash = ?`).run(hashKey(c.key));
    assert.equal(await status(c.key), 401);
  });

  it('answers from the kept copy while the counter stands still', async () => {
    // White-box check that the copy is really used: with the triggers gone, a change goes unseen.
    const { key } = await s.user();
    assert.equal(await status(key), 200);
    other.exec('drop trigger api_keys_auth_update');
    try {
      other.prepare(`update api_keys set status = 'disabled' where key_hash = ?`).run(hashKey(key));
      assert.equal(await status(key), 200);
      other.prepare('update auth_generation set n = n + 1').run();
      assert.equal(await status(key), 401);
    } finally {
      other.exec(`create trigger api_keys_auth_update after update of status, scopes, expires_at, user_id, key_hash, name on api_keys
        begin update auth_generation set n = n + 1 where id = 1; end`);
    }
  });

  it('requests of one event-loop turn share one read of the counter; the next turn reads it again', async () => {
    const { key } = await s.user();
    const repo = createApiKeysRepo(s.c.db);
    let reads = 0;
    const counting = { ...repo, authGeneration: () => (reads++, repo.authGeneration()) };
    const keys = createApiKeysService({ repo: counting, clock: systemClock, access: s.c.access });
    const header = `Bearer ${key}`;
    const first = await Promise.all(Array.from({ length: 20 }, () => keys.authenticate(header)));
    assert.equal(first.length, 20);
    assert.equal(reads, 1);
    other.prepare(`update api_keys set status = 'disabled' where key_hash = ?`).run(hashKey(key));
    await new Promise((r) => setImmediate(r));
    await assert.rejects(keys.authenticate(header), /disabled/);
    assert.equal(reads, 2);
  });

  it('touches last_used_at once a minute, not on every request', async () => {
    const { key } = await s.user();
    for (let i = 0; i < 5; i++) assert.equal(await status(key), 200);
    await new Promise((r) => setTimeout(r, 50));
    const used = other.prepare('select last_used_at from api_keys where key_hash = ?').get(hashKey(key)) as { last_used_at: string };
    assert.ok(used.last_used_at, 'touched');
    for (let i = 0; i < 5; i++) assert.equal(await status(key), 200);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(other.prepare('select last_used_at from api_keys where key_hash = ?').get(hashKey(key)), used);
  });
});
