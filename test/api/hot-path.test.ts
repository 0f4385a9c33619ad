import http from 'node:http';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { FifoLock } from '../../src/db/sqlite/sqlite-dialect.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/**
 * GET /v1/sheets/{id} is answered before the framework (src/http/hot-path.ts). A second app on the
 * same container, with hot paths off, answers every request through Fastify: the two must agree
 * byte for byte, the hot one must really be the one answering, and whatever it does not take must
 * reach Fastify unchanged.
 */
const VOLATILE = new Set(['date', 'ratelimit-remaining', 'keep-alive', 'connection']);

interface Raw {
  status: number;
  text: string;
  headers: Record<string, string>;
}

async function raw(base: string, path: string, key?: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const res = await fetch(base + path, { method, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
  const all = Object.fromEntries([...res.headers].filter(([name]) => !VOLATILE.has(name)));
  return { status: res.status, text: await res.text(), headers: all };
}

const TRICKY = [{ col1: '<p>plain</p>' }, { col2: '<p>東京 "quotes" \\ back\nslash\ttab</p>', col1: '<table><tr><td>a</td></tr></table>', col10: '\u2028\u2029 😀 </script> \u0001' }, {}];

for (const dialect of dialects()) {
  describe(`GET /v1/sheets/{id} before the framework [${dialect}]`, () => {
    let cold: FastifyInstance;
    let coldUrl: string;
    let alice: { key: string; userId: string; personalWorkspace: string };
    const { s, beforeClose } = useServer(dialect);
    before(async () => {
      cold = await buildApp(s.c, { logger: false, hotPaths: false });
      await cold.listen({ port: 0, host: '127.0.0.1' });
      coldUrl = `http://127.0.0.1:${(cold.server.address() as { port: number }).port}`;
      alice = await s.user('business');
      // Each app counts in its own memory: open alice's window on both at once, so their resets agree.
      await Promise.all([raw(s.url, '/v1/sheets?limit=1', alice.key), raw(coldUrl, '/v1/sheets?limit=1', alice.key)]);
    });
    beforeClose(() => cold.close());

    const hotAnswers = async () => {
      const text = await (await fetch(`${s.url}/metrics`)).text();
      return Number(/^http_hot_path_answers_total\{route="\/v1\/sheets\/:id"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const create = async (body: unknown) => {
      const res = await s.req('POST', '/v1/sheets', { key: alice.key, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.sheet as { id: string; version: number };
    };
    const assertSame = (hot: Raw, framework: Raw, what: string) => {
      assert.equal(hot.status, framework.status, `${what}: status`);
      assert.equal(hot.text, framework.text, `${what}: body`);
      // The window's seconds left count down between the two requests; a slow machine crosses a second.
      const reset = (h: Record<string, string>) => Number(h['ratelimit-reset']);
      assert.ok(Math.abs(reset(hot.headers) - reset(framework.headers)) <= 1, `${what}: ratelimit-reset ${hot.headers['ratelimit-reset']} vs ${framework.headers['ratelimit-reset']}`);
      const rest = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'ratelimit-reset'));
      assert.deepEqual(rest(hot.headers), rest(framework.headers), `${what}: headers`);
    };

    it('answers byte for byte what the framework route answers, trashed sheets too', async () => {
      const ids = [];
      for (const content of TRICKY) ids.push((await create({ title: 'T "ü" 会議', content, folder: 'f/ö', tags: ['a', 'b"c'] })).id);
      const trashed = await create({ title: 'gone', content: { col1: '<p>x</p>' } });
      assert.equal((await s.req('DELETE', `/v1/sheets/${trashed.id}`, { key: alice.key })).status, 200);
      ids.push(trashed.id);
      const before = await hotAnswers();
      for (const id of ids) {
        const hot = await raw(s.url, `/v1/sheets/${id}`, alice.key);
        assert.equal(hot.status, 200);
        assertSame(hot, await raw(coldUrl, `/v1/sheets/${id}`, alice.key), id);
      }
      assert.equal(await hotAnswers(), before + ids.length, 'every one of them was answered by the hot path');
      const body = JSON.parse((await raw(s.url, `/v1/sheets/${trashed.id}`, alice.key)).text);
      assert.equal(typeof body.sheet.trashedAt, 'string');
    });

    it('If-None-Match: 304 with the ETag when it names the version, 200 when not, the framework 400 when malformed', async () => {
      const { id } = await create({ title: 'etag', content: { col1: '<p>v1</p>' } });
      const before = await hotAnswers();
      for (const tag of ['"1"', 'W/"1"', '"3", "1"', '*', '"2"']) {
        const hot = await raw(s.url, `/v1/sheets/${id}`, alice.key, { 'if-none-match': tag });
        assert.equal(hot.status, tag === '"2"' ? 200 : 304, tag);
        assertSame(hot, await raw(coldUrl, `/v1/sheets/${id}`, alice.key, { 'if-none-match': tag }), tag);
      }
      assert.equal(await hotAnswers(), before + 5);
      const bad = await raw(s.url, `/v1/sheets/${id}`, alice.key, { 'if-none-match': 'nope' });
      assert.equal(bad.status, 400);
      assertSame(bad, await raw(coldUrl, `/v1/sheets/${id}`, alice.key, { 'if-none-match': 'nope' }), 'malformed');
      assert.equal(await hotAnswers(), before + 5, 'the framework answered the malformed one');
    });

    it('errors are the framework answers, and each request counts once against the plan limit', async () => {
      const bob = await s.user('pro');
      const mine = await create({ title: 'mine' });
      const narrow = await s.req('POST', '/v1/api-keys', { key: bob.key, body: { name: 'todos only', scopes: ['todos:read'] } });
      const disabled = await s.req('POST', '/v1/api-keys', { key: bob.key, body: { name: 'off' } });
      assert.equal((await s.req('DELETE', `/v1/api-keys/${disabled.body.id}`, { key: bob.key })).status, 200);
      const cases: [string, string | undefined, number][] = [
        [`/v1/sheets/${mine.id}`, bob.key, 403],
        ['/v1/sheets/sht_unknown', bob.key, 404],
        [`/v1/sheets/${mine.id}`, narrow.body.api_key, 403],
        [`/v1/sheets/${mine.id}`, disabled.body.api_key, 401],
        [`/v1/sheets/${mine.id}`, `sk_${'x'.repeat(43)}`, 401],
        [`/v1/sheets/${mine.id}`, undefined, 401],
      ];
      const before = await hotAnswers();
      for (const [path, key, status] of cases) {
        const hot = await raw(s.url, path, key);
        assert.equal(hot.status, status, `${path} ${status}: ${hot.text}`);
        assertSame(hot, await raw(coldUrl, path, key), `${path} ${status}`);
      }
      assert.equal(await hotAnswers(), before, 'no error was answered by the hot path');
      // Bob's account on the hot server (each app keeps its own in-memory counters): one request, one count.
      const remaining = async (path: string) => Number((await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${bob.key}` } })).headers.get('ratelimit-remaining'));
      const first = await remaining('/v1/sheets/sht_unknown');
      assert.equal(await remaining('/v1/sheets/sht_unknown'), first - 1, 'a 404 through the hot path counts once');
      assert.equal(await remaining(`/v1/sheets/${mine.id}`), first - 2, 'a 403 through the hot path counts once');
      assert.equal(await remaining('/v1/sheets?limit=1'), first - 3);
    });

    it('what it does not take reaches the framework unchanged', async () => {
      const { id } = await create({ title: 'window', content: { col1: '<p>one two three</p>', col2: '<p>x</p>' } });
      const before = await hotAnswers();
      const windowed = await raw(s.url, `/v1/sheets/${id}?columns=col1&format=text`, alice.key);
      assert.equal(windowed.status, 200);
      assert.deepEqual(Object.keys(JSON.parse(windowed.text).sheet.content), ['col1']);
      assertSame(windowed, await raw(coldUrl, `/v1/sheets/${id}?columns=col1&format=text`, alice.key), 'windowed');
      for (const path of [`/v1/sheets/${id}/`, `/v1/sheets/${encodeURIComponent(id).replace('_', '%5F')}`]) {
        const hot = await raw(s.url, path, alice.key);
        assert.equal(hot.status, 200, path);
        assertSame(hot, await raw(coldUrl, path, alice.key), path);
      }
      const head = await raw(s.url, `/v1/sheets/${id}`, alice.key, {}, 'HEAD');
      assertSame(head, await raw(coldUrl, `/v1/sheets/${id}`, alice.key, {}, 'HEAD'), 'HEAD');
      // fetch drops Content-Length from a GET, so node:http sends this one.
      const withBody = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${s.url}/v1/sheets/${id}`, { method: 'GET', headers: { authorization: `Bearer ${alice.key}`, 'content-length': '2', 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end('{}');
      });
      assert.equal(withBody, 200);
      assert.equal(await hotAnswers(), before, 'all of them went through the framework');
    });

    it('reads in flight beside writes answer whole versions: the ETag and the body always agree', async () => {
      const { id } = await create({ title: 'v1', content: { col1: '<p>v1</p>' } });
      const writes = Array.from({ length: 15 }, (_, i) => s.req('PUT', `/v1/sheets/${id}`, { key: alice.key, body: { title: `t${i}`, content: { col1: `<p>${i}</p>` } } }));
      const reads = Array.from({ length: 60 }, () => raw(s.url, `/v1/sheets/${id}`, alice.key));
      const [written, read] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
      assert.deepEqual(
        written.map((w) => w.status),
        writes.map(() => 200),
      );
      // Each write's title and col1 go together; a read must never mix two versions.
      const titleOf = new Map(written.map((w) => [w.body.sheet.version as number, w.body.sheet.title as string]));
      titleOf.set(1, 'v1');
      for (const r of read) {
        assert.equal(r.status, 200);
        const sheet = JSON.parse(r.text).sheet;
        assert.equal(r.headers.etag, `"${sheet.version}"`);
        assert.equal(sheet.title, titleOf.get(sheet.version));
        assert.equal(sheet.content.col1, sheet.version === 1 ? '<p>v1</p>' : `<p>${sheet.title.slice(1)}</p>`);
      }
      const last = JSON.parse((await raw(s.url, `/v1/sheets/${id}`, alice.key)).text).sheet;
      assert.equal(last.version, 16);
    });

    it('never reads a write that is not committed', async () => {
      const { id } = await create({ title: 'committed' });
      let during: unknown;
      await s.c.db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('sheets').set({ title: 'rolled back' }).where('id', '=', id).execute();
          // On SQLite this is the same connection, in the middle of the transaction: the read must wait for its end.
          during = s.c.sheets.getJson({ userId: alice.userId }, id);
          throw new Error('roll back');
        })
        .catch((err: Error) => assert.equal(err.message, 'roll back'));
      const { json } = await (during as Promise<{ json: Buffer }>);
      assert.equal(JSON.parse(json.toString()).title, 'committed');
    });
  });
}

describe('FifoLock (the SQLite connection lock)', () => {
  it('hands the lock to waiters in arrival order, waking one per release', async () => {
    const lock = new FifoLock();
    assert.equal(lock.acquire(), undefined, 'free: taken at once, no promise');
    const order: number[] = [];
    const waiters = Array.from({ length: 5 }, (_, i) => (lock.acquire() as Promise<void>).then(() => order.push(i)));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, [], 'nobody runs while it is held');
    for (let i = 0; i < 5; i++) {
      lock.release();
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        order,
        Array.from({ length: i + 1 }, (_, j) => j),
        `release ${i + 1} woke exactly one, in order`,
      );
    }
    await Promise.all(waiters);
    lock.release();
    assert.equal(lock.acquire(), undefined, 'free again after the last release');
  });

  it('stays in order across thousands of waiters', async () => {
    const lock = new FifoLock();
    lock.acquire();
    const order: number[] = [];
    const all = Array.from({ length: 3000 }, (_, i) =>
      (lock.acquire() as Promise<void>).then(() => {
        order.push(i);
        lock.release();
      }),
    );
    lock.release();
    await Promise.all(all);
    assert.deepEqual(
      order,
      Array.from({ length: 3000 }, (_, i) => i),
    );
    assert.equal(lock.acquire(), undefined);
  });
});
