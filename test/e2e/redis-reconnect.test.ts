import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers.js';
import { freePort } from '../private-pg.js';

/**
 * Redis goes away and comes back (issue 53): the service fails open meanwhile (requests served, /readyz
 * 200 "degraded") and reconnects by itself, with no restart. On a redis-server of the test's own: the
 * shared one at TEST_REDIS_URL serves other test files at the same time.
 */
function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const skip = hasRedisServer() ? false : 'skipped: no redis-server binary (install redis-server, as .ci/run does)';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Redis restarts: the service fails open, then reconnects by itself', { skip, timeout: 30_000 }, () => {
  let redis: ChildProcess | undefined;
  let s: TestServer | undefined;
  let port: number;
  async function startRedis() {
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
    // Ready once it says so on stdout.
    let out = '';
    for await (const chunk of redis.stdout!) {
      out += chunk;
      if (/Ready to accept connections/.test(out)) break;
    }
    redis.stdout!.resume();
  }
  async function stopRedis() {
    const r = redis;
    redis = undefined;
    if (!r || r.exitCode !== null) return;
    r.kill('SIGKILL');
    await once(r, 'exit');
  }
  after(async () => {
    await s?.close();
    await stopRedis();
  });

  it('serves without Redis (degraded), and is ready with Redis again within 3 s of its return', async () => {
    port = await freePort();
    await startRedis();
    s = await startServer('sqlite', { env: { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: 'reconnect:' } });
    const { key } = await s.user('pro');
    const ready = await s.req('GET', '/readyz');
    assert.deepEqual(ready.body.checks, { database: 'ok', redis: 'ok' });

    await stopRedis();
    const down = await s.req('GET', '/readyz');
    assert.equal(down.status, 200);
    assert.equal(down.body.status, 'degraded');
    assert.equal((await s.req('GET', '/v1/sheets', { key })).status, 200, 'served without Redis (fail open)');

    await startRedis();
    const back = performance.now();
    while ((await s.req('GET', '/readyz')).body.status !== 'ready') {
      assert.ok(performance.now() - back < 3000, 'Redis is used again without a restart');
      await sleep(50);
    }
    console.log(`Redis used again ${Math.round(performance.now() - back)} ms after it accepted connections`);
    const r = await s.req('GET', '/v1/sheets', { key });
    assert.equal(r.status, 200);
    assert.ok(r.headers.get('ratelimit-remaining'), 'rate limits are counted in Redis again');
  });
});
