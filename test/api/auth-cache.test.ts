import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { systemClock } from '../../src/clock.js';
import { createApiKeysRepo } from '../../src/modules/api-keys/api-keys.repo.js';
import { createApiKeysService, hashKey } from '../../src/modules/api-keys/api-keys.service.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/** A second connection to the server's database, standing in for another process: `?` marks parameters on both. */
interface OtherProcess {
  run(text: string, ...params: unknown[]): Promise<void>;
  get<T>(text: string, ...params: unknown[]): Promise<T | undefined>;
  close(): Promise<void>;
}

async function otherProcess(s: { dialect: string; dataDir: string; c: { config: { databaseUrl?: string } } }): Promise<OtherProcess> {
  if (s.dialect === 'sqlite') {
    const file = new SQLite(path.join(s.dataDir, 'sheet-workspace.db'));
    file.pragma('busy_timeout = 5000');
    return {
      run: async (text, ...params) => void file.prepare(text).run(...params),
      get: async <T>(text: string, ...params: unknown[]) => file.prepare(text).get(...params) as T | undefined,
      close: async () => void file.close(),
    };
  }
  const client = new pg.Client({ connectionString: s.c.config.databaseUrl });
  await client.connect();
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    run: async (text, ...params) => void (await client.query(numbered(text), params)),
    get: async <T>(text: string, ...params: unknown[]) => (await client.query(numbered(text), params)).rows[0] as T | undefined,
    close: () => client.end(),
  };
}

/** Drops the trigger that follows key updates, runs `fn`, and puts the trigger back as the catalog defined it. */
async function withoutKeyUpdateTrigger(dialect: string, other: OtherProcess, fn: () => Promise<void>) {
  const { definition } = (await other.get<{ definition: string }>(
    dialect === 'sqlite'
      ? `select sql as definition from sqlite_master where type = 'trigger' and name = 'api_keys_auth_update'`
      : `select pg_get_triggerdef(oid) as definition from pg_trigger where tgname = 'api_keys_auth_update'`,
  ))!;
  await other.run(dialect === 'sqlite' ? 'drop trigger api_keys_auth_update' : 'drop trigger api_keys_auth_update on api_keys');
  try {
    await fn();
  } finally {
    await other.run(definition);
  }
}

/**
 * Keys that authenticated are kept in memory and checked against one counter row (migrations 019 and
 * 031) instead of being looked up on every request. Every change an authentication can see must still
 * count on the very next request, also when another process makes it: here a second connection to the
 * same database stands in for that process, so nothing in the server hears of it.
 */
for (const dialect of dialects())
  describe(`authenticated keys kept in memory [${dialect}]`, () => {
    let other: OtherProcess;
    const { s, beforeClose } = useServer(dialect);
    before(async () => {
      other = await otherProcess(s);
    });
    beforeClose(async () => {
      await other.close();
    });

    const status = async (key: string, urlPath = '/v1/sheets?limit=1') => (await s.req('GET', urlPath, { key })).status;

    it('a key disabled by another process fails on the next request', async () => {
      const { key } = await s.user();
      assert.equal(await status(key), 200);
      assert.equal(await status(key), 200);
      await other.run(`update api_keys set status = 'disabled' where key_hash = ?`, hashKey(key));
      const res = await s.req('GET', '/v1/sheets?limit=1', { key });
      assert.equal(res.status, 401);
      assert.match(res.body.error, /disabled/);
    });

    it('a plan changed by another process counts on the next request', async () => {
      const { key, userId } = await s.user('free');
      const codes: number[] = [];
      for (let i = 0; i < 31; i++) codes.push(await status(key));
      assert.deepEqual([codes.slice(0, 30).every((c) => c === 200), codes[30]], [true, 429], 'the Free plan allows 30 a minute');
      await other.run(`update users set plan = 'business' where id = ?`, userId);
      assert.equal(await status(key), 200, 'the Business plan allows 1,000 a minute');
    });

    it('narrowed scopes, an expiry, a deleted key or account count on the next request', async () => {
      const a = await s.user();
      assert.equal(await status(a.key), 200);
      await other.run(`update api_keys set scopes = '["sheets:write"]' where key_hash = ?`, hashKey(a.key));
      assert.equal(await status(a.key), 403);

      const b = await s.user();
      assert.equal(await status(b.key), 200);
      await other.run(`update api_keys set expires_at = '2000-01-01T00:00:00.000Z' where key_hash = ?`, hashKey(b.key));
      assert.equal(await status(b.key), 401);

      const c = await s.user();
      assert.equal(await status(c.key), 200);
      await other.run(`delete from api_keys where key_hash = ?`, hashKey(c.key));
      assert.equal(await status(c.key), 401);
    });

    it('answers from the kept copy while the counter stands still', async () => {
      // White-box check that the copy is really used: with the trigger gone, a change goes unseen.
      const { key } = await s.user();
      assert.equal(await status(key), 200);
      await withoutKeyUpdateTrigger(dialect, other, async () => {
        await other.run(`update api_keys set status = 'disabled' where key_hash = ?`, hashKey(key));
        assert.equal(await status(key), 200);
        await other.run('update auth_generation set n = n + 1');
        assert.equal(await status(key), 401);
      });
    });

    it('GET by id (its hot route; on PostgreSQL the counter comes with the row) sees every change on the next request', async () => {
      const { key } = await s.user();
      const stranger = await s.user();
      const created = await s.req('POST', '/v1/sheets', { key, body: { title: 'hot' } });
      const id = created.body.sheet.id as string;
      const path = `/v1/sheets/${id}`;
      assert.equal(await status(key, path), 200);
      assert.equal(await status(key, path), 200, 'the key is known now: the early read path');
      assert.equal(await status(stranger.key, path), 403, "another account's sheet is refused");
      assert.equal(await status(stranger.key, path), 403, "another account's sheet is refused with its key known too");
      assert.equal(await status(key, '/v1/sheets/sht_01kxxxxxxxxxxxxxxxxxxxxxxx'), 404);
      await withoutKeyUpdateTrigger(dialect, other, async () => {
        await other.run(`update api_keys set status = 'disabled' where key_hash = ?`, hashKey(key));
        assert.equal(await status(key, path), 200, 'the kept copy answers while the counter stands still');
        await other.run('update auth_generation set n = n + 1');
        const res = await s.req('GET', path, { key });
        assert.equal(res.status, 401);
        assert.match(res.body.error, /disabled/);
      });
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
      await other.run(`update api_keys set status = 'disabled' where key_hash = ?`, hashKey(key));
      await new Promise((r) => setImmediate(r));
      await assert.rejects(keys.authenticate(header), /disabled/);
      assert.equal(reads, 2);
    });

    it('a request arriving while a read of the counter runs waits for the next read, which it shares', async () => {
      // As on PostgreSQL, where the read is a round trip: the first read is held open here until released.
      const { key } = await s.user();
      const repo = createApiKeysRepo(s.c.db);
      let reads = 0;
      let holdRead = 0;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const counting = {
        ...repo,
        authGeneration: async () => {
          const n = ++reads;
          const value = await repo.authGeneration(); // read now, answered when released
          if (n === holdRead) await held;
          return value;
        },
      };
      const keys = createApiKeysService({ repo: counting, clock: systemClock, access: s.c.access });
      const header = `Bearer ${key}`;
      await keys.authenticate(header); // the key is kept from here on
      await new Promise((r) => setImmediate(r));
      reads = 0;
      holdRead = 1;
      const first = keys.authenticate(header);
      await new Promise((r) => setTimeout(r, 50)); // the first read has run; its answer is held
      await other.run(`update api_keys set status = 'disabled' where key_hash = ?`, hashKey(key));
      // These arrive after the change was committed: the read in flight was issued before, so they must not use it.
      const later = Array.from({ length: 10 }, () =>
        keys.authenticate(header).then(
          () => 'ok',
          (err: Error) => err.message,
        ),
      );
      await new Promise((r) => setImmediate(r));
      assert.equal(reads, 1, 'no second read while the first runs');
      release();
      await first;
      assert.deepEqual(new Set(await Promise.all(later)).size, 1);
      assert.match((await Promise.all(later))[0], /disabled/);
      assert.equal(reads, 2, 'the ten share one read, issued once the first ended');
    });

    it('keys created and disabled in flight at once, beside reads, each count on the next request', async () => {
      // Every key change moves the one counter row: on PostgreSQL each such transaction holds its lock to
      // its commit. Thirty changes at once must all land, none fail or wait on each other in a cycle.
      const { key } = await s.user('business');
      const reading = Array.from({ length: 40 }, () => s.req('GET', '/v1/sheets?limit=1', { key }));
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) => s.req('POST', '/v1/api-keys', { key, body: { name: `k${i}` } })));
      assert.deepEqual(
        created.map((r) => r.status),
        created.map(() => 200),
      );
      const fresh = created.map((r) => r.body.api_key as string);
      for (const k of fresh) assert.equal(await status(k), 200);
      const gone = created.slice(0, 10);
      const [disabled] = await Promise.all([Promise.all(gone.map((r) => s.req('DELETE', `/v1/api-keys/${r.body.id}`, { key }))), Promise.all(fresh.map((k) => s.req('GET', '/v1/sheets?limit=1', { key: k })))]);
      assert.ok(
        disabled.every((r) => r.status === 200),
        `disabled: ${disabled.map((r) => r.status)}`,
      );
      assert.deepEqual(
        await Promise.all(fresh.map((k) => status(k))),
        fresh.map((_, i) => (i < 10 ? 401 : 200)),
      );
      assert.ok((await Promise.all(reading)).every((r) => r.status === 200));
    });

    it('touches last_used_at once a minute, not on every request', async () => {
      const { key } = await s.user();
      for (let i = 0; i < 5; i++) assert.equal(await status(key), 200);
      await new Promise((r) => setTimeout(r, 50));
      const used = await other.get<{ last_used_at: string }>('select last_used_at from api_keys where key_hash = ?', hashKey(key));
      assert.ok(used?.last_used_at, 'touched');
      for (let i = 0; i < 5; i++) assert.equal(await status(key), 200);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(await other.get('select last_used_at from api_keys where key_hash = ?', hashKey(key)), used);
    });
  });
