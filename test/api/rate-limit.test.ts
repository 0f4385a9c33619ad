import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerRateLimits } from '../../src/http/rate-limit.js';
import { MemoryWindowStore } from '../../src/http/rate-limit-memory-store.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { assertError, dialects, startServer, type Res, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';

const REDIS = process.env.TEST_REDIS_URL;
const NO_REDIS = 'TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:56379): skipping the Redis-backed cases';

function limitHeaders(res: Res) {
  return {
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: Number(res.headers.get('ratelimit-reset')),
  };
}

/** Sends n GET /v1/sheets with `key` and checks every one passes with the remaining count going down. */
async function spend(s: TestServer, key: string, n: number, limit: number, usedBefore = 0) {
  for (let i = 1; i <= n; i++) {
    const res = await s.req('GET', '/v1/sheets', { key });
    assert.equal(res.status, 200, `request ${usedBefore + i} should pass: ${JSON.stringify(res.body)}`);
    const h = limitHeaders(res);
    assert.equal(h.limit, String(limit));
    assert.equal(h.remaining, String(limit - usedBefore - i), `remaining after request ${usedBefore + i}`);
    assert.ok(h.reset >= 1 && h.reset <= 60, `RateLimit-Reset ${h.reset} is seconds left in the minute`);
  }
}

function assertLimited(res: Res, mentions: RegExp) {
  assertError(res, 429, 'rate_limited', mentions);
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
  assert.equal(res.headers.get('ratelimit-remaining'), '0');
}

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

const stores: { name: string; env: () => Record<string, string>; skip?: string }[] = [
  { name: 'memory', env: () => ({}) },
  {
    name: 'redis',
    env: () => ({ REDIS_URL: REDIS!, REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:` }),
    skip: REDIS ? undefined : NO_REDIS,
  },
];

for (const dialect of dialects()) {
  for (const store of stores) {
    describe(`rate limits [${dialect}, ${store.name}]`, { skip: store.skip }, () => {
      const { s } = useServer(dialect, { env: { ...store.env(), AUTH_FAILURE_LIMIT: '20' } });

      it('free plan: exactly 30 a minute over all keys of the account, headers counting down, then 429', async () => {
        const u = await s.user('free');
        const second = await s.c.apiKeys.create(u.userId, 'second');
        await spend(s, u.key, 15, 30);
        await spend(s, second.api_key, 15, 30, 15);
        assertLimited(await s.req('GET', '/v1/sheets', { key: u.key }), /free plan allows 30 requests per minute/);
        assertLimited(await s.req('POST', '/v1/sheets', { key: second.api_key, body: { title: 'x' } }), /retry in \d+ s/);

        const other = await s.user('free');
        await spend(s, other.key, 1, 30);
      });

      it('a plan change counts on the next request', async () => {
        const u = await s.user('free');
        await spend(s, u.key, 30, 30);
        assertLimited(await s.req('GET', '/v1/sheets', { key: u.key }), /free plan/);
        await s.c.accounts.setPlan(u.userId, 'pro');
        const res = await s.req('GET', '/v1/sheets', { key: u.key });
        assert.equal(res.status, 200);
        assert.deepEqual([limitHeaders(res).limit, limitHeaders(res).remaining], ['100', String(100 - 32)]);
        await s.c.accounts.setPlan(u.userId, 'free');
        assertLimited(await s.req('GET', '/v1/sheets', { key: u.key }), /free plan/);
      });

      it('REST and MCP (/mcp) count against the same per-account limit', async () => {
        const u = await s.user('free');
        await spend(s, u.key, 28, 30);
        const mcp = () =>
          s.req('POST', '/mcp', {
            key: u.key,
            headers: { accept: 'application/json, text/event-stream' },
            body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
          });
        const first = await mcp();
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.result.serverInfo !== undefined, true);
        assert.deepEqual([limitHeaders(first).limit, limitHeaders(first).remaining], ['30', '1']);
        await spend(s, u.key, 1, 30, 29);
        assertLimited(await mcp(), /free plan allows 30/);
        assertLimited(await s.req('GET', '/v1/sheets', { key: u.key }), /free plan allows 30/);
      });

      it('pro and business limits are 100 and 1000; errors carry the headers too', async () => {
        const pro = await s.user('pro');
        const biz = await s.user('business');
        const notFound = await s.req('GET', '/v1/sheets/sht_nope', { key: pro.key });
        assert.equal(notFound.status, 404);
        assert.deepEqual([limitHeaders(notFound).limit, limitHeaders(notFound).remaining], ['100', '99']);
        const bad = await s.req('POST', '/v1/sheets', { key: biz.key, body: { title: 5 } });
        assert.equal(bad.status, 400);
        assert.deepEqual([limitHeaders(bad).limit, limitHeaders(bad).remaining], ['1000', '999']);
      });

      it('failed authentication is limited per address and never blocks a valid key', async () => {
        const u = await s.user('pro');
        for (let i = 1; i <= 20; i++) {
          const res = await s.req('GET', '/v1/sheets', { key: `sk_${randomBytes(32).toString('base64url')}` });
          assertError(res, 401, 'unauthorized', /Unknown API key/);
          assert.equal(res.headers.get('ratelimit-remaining'), String(20 - i));
        }
        assertLimited(await s.req('GET', '/v1/sheets', { key: `sk_${'y'.repeat(43)}` }), /Too many failed authentications/);
        assertLimited(await s.req('GET', '/v1/sheets'), /Too many failed authentications/);
        const ok = await s.req('GET', '/v1/sheets', { key: u.key });
        assert.equal(ok.status, 200, 'a valid key from the same address still works');
        assert.equal(limitHeaders(ok).limit, '100');
        await s.c.apiKeys.disable(u, (await s.c.apiKeys.list(u))[0].id);
        assertLimited(await s.req('GET', '/v1/sheets', { key: u.key }), /Too many failed authentications/);
      });

      it('/readyz reports the database and Redis; /metrics counts requests and rejections', async () => {
        const ready = await s.req('GET', '/readyz');
        assert.equal(ready.status, 200);
        assert.deepEqual(ready.body, {
          success: true,
          status: 'ready',
          checks: { database: 'ok', redis: store.name === 'redis' ? 'ok' : 'not_configured' },
        });
        const metrics = await s.req('GET', '/metrics');
        assert.equal(metrics.status, 200);
        assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
        const text = metrics.body as string;
        assert.match(text, /http_requests_total\{method="GET",route="\/v1\/sheets",status="200"\} \d+/);
        assert.match(text, /http_requests_total\{method="GET",route="\/v1\/sheets",status="429"\} [1-9]/);
        assert.match(text, /http_request_duration_seconds_bucket\{le="0.05",method="GET",route="\/v1\/sheets\/:id",status="404"\} 1/);
        assert.match(text, /rate_limit_rejections_total\{kind="plan"\} [3-9]/);
        assert.match(text, /rate_limit_rejections_total\{kind="auth_failure"\} 3/);
        assert.match(text, /# TYPE webhook_delivery_attempts_total counter/);
        assert.match(text, /# TYPE webhook_queue_depth gauge/);
      });
    });
  }
}

describe('rate limits: switches and failure modes', () => {
  it('the in-process counter: 40 requests of one account counted in the same tick let exactly 30 through', async () => {
    const app = Fastify();
    const config = { rateLimitDisabled: false, redisKeyPrefix: 'sw:', authFailureLimit: 20, sharedReadLimit: 100 };
    const limits = await registerRateLimits(app, { config, metrics: createMetrics() });
    await app.ready();
    try {
      const account = { userId: 'usr_same_tick', plan: 'free' as const };
      // Distinct request objects (the count is kept once per request), all counted before any answer is read.
      const counts = await Promise.all(Array.from({ length: 40 }, () => limits.countRequest({} as never, account)));
      assert.equal(counts.filter((c) => !c.refusal).length, 30);
      assert.deepEqual(
        counts.map((c) => c.headers['ratelimit-remaining']).slice(0, 30),
        Array.from({ length: 30 }, (_, i) => 29 - i),
        'each request sees the count at its own increment',
      );
      const other = await limits.countRequest({} as never, { userId: 'usr_other', plan: 'free' });
      assert.equal(other.refusal, undefined, 'another account has its own window');
    } finally {
      await app.close();
    }
  });

  it('the in-process counter starts a new window once the old one has ended, and reads without counting', async () => {
    const store = new MemoryWindowStore();
    const incr = (key: string, window: number) => new Promise<{ current: number; ttl: number }>((r) => store.incr(key, (_e, res) => r(res), window));
    const read = (key: string, window: number) => new Promise<{ current: number; ttl: number }>((r) => store.read(key, (_e, res) => r(res), window));
    assert.equal((await incr('a', 50)).current, 1);
    assert.equal((await incr('a', 50)).current, 2);
    assert.equal((await read('a', 50)).current, 2);
    assert.equal((await read('b', 50)).current, 0);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal((await read('a', 50)).current, 0);
    const fresh = await incr('a', 50);
    assert.equal(fresh.current, 1);
    assert.ok(fresh.ttl > 0 && fresh.ttl <= 50);
  });

  it('RATE_LIMIT_DISABLED=1 lifts the plan limits (the failed-auth limit stays)', async () => {
    const s = await startServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1', AUTH_FAILURE_LIMIT: '2' } });
    try {
      const u = await s.user('free');
      for (let i = 0; i < 40; i++) assert.equal((await s.req('GET', '/v1/sheets', { key: u.key })).status, 200);
      assertError(await s.req('GET', '/v1/sheets'), 401, 'unauthorized');
      assertError(await s.req('GET', '/v1/sheets'), 401, 'unauthorized');
      assertError(await s.req('GET', '/v1/sheets'), 429, 'rate_limited');
    } finally {
      await s.close();
    }
  });

  it('behind a load balancer (TRUST_PROXY=1) failed auth is counted per forwarded client address', async () => {
    const s = await startServer('sqlite', { env: { TRUST_PROXY: '1', AUTH_FAILURE_LIMIT: '2' } });
    try {
      const from = (ip: string) => s.req('GET', '/v1/sheets', { headers: { 'x-forwarded-for': ip } });
      assertError(await from('203.0.113.7'), 401, 'unauthorized');
      assertError(await from('203.0.113.7'), 401, 'unauthorized');
      assertError(await from('203.0.113.7'), 429, 'rate_limited');
      assertError(await from('198.51.100.9'), 401, 'unauthorized');
    } finally {
      await s.close();
    }
  });

  it('Redis unreachable: requests are served uncounted (fail open) and /readyz says degraded', async () => {
    const started = Date.now();
    const s = await startServer('sqlite', { env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    try {
      assert.ok(Date.now() - started < 5000, 'start does not hang on a missing Redis');
      const u = await s.user('free');
      for (let i = 0; i < 35; i++) {
        const res = await s.req('GET', '/v1/sheets', { key: u.key });
        assert.equal(res.status, 200, `request ${i + 1} passes while Redis is down`);
        assert.equal(res.headers.get('ratelimit-limit'), '30');
      }
      const ready = await s.req('GET', '/readyz');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { success: true, status: 'degraded', checks: { database: 'ok', redis: 'down' } });
      const text = (await s.req('GET', '/metrics')).body as string;
      assert.match(text, /rate_limit_store_errors_total 35/);
    } finally {
      await s.close();
    }
  });
});
