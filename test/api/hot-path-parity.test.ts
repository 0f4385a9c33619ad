import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { dialects, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/**
 * The hot path (src/http/hot-path.ts) answers GET /v1/sheets/{id} before Fastify; nothing in the
 * logs or the metrics may tell it apart from the framework route but the field saying which path
 * answered. The same GET is sent both ways: a trailing slash makes the hot path decline (the router
 * ignores it), so Fastify answers that one.
 */
type Line = Record<string, any>;
const FORWARDED = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'sheets.example' };
const ROUTE_SERIES = 'method="GET",route="/v1/sheets/:id",status="200"';

async function listen(s: TestServer, requestLog: AppOptions['requestLog']) {
  const lines: Line[] = [];
  const app = await buildApp(s.c, { logger: { level: 'info', stream: { write: (l: string) => lines.push(JSON.parse(l)) } }, requestLog });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  /** The log lines of one request: those carrying the reqId of its last line. */
  const linesOf = async (path: string, key: string) => {
    lines.length = 0;
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${key}`, ...FORWARDED } });
    assert.equal(res.status, 200, await res.text());
    // Fastify logs on the response's 'finish', which may come just after the client has the answer.
    for (let i = 0; i < 200 && !lines.some((l) => l.responseTime !== undefined); i++) await new Promise((r) => setTimeout(r, 5));
    const last = lines.at(-1)!;
    return lines.filter((l) => l.reqId === last.reqId);
  };
  return { app, url, linesOf };
}

const keys = (o: object) => Object.keys(o).sort();

for (const dialect of dialects()) {
  describe(`GET /v1/sheets/{id}: the hot path and the framework route look the same [${dialect}]`, () => {
    let id: string;
    const apps: FastifyInstance[] = [];
    // Loopback is the trusted proxy, so the client address and host come from X-Forwarded-*.
    const {
      s,
      users: { alice },
      beforeClose,
    } = useServer(dialect, { env: { TRUST_PROXY: '127.0.0.1' }, users: { alice: 'pro' } });
    before(async () => {
      const res = await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'parity', content: { col1: '<p>x</p>' } } });
      id = res.body.sheet.id;
    });
    beforeClose(async () => {
      for (const app of apps) await app.close();
    });

    it('JSON records: the same lines with the same fields; answeredBy says which path answered', async () => {
      const { app, linesOf } = await listen(s, 'records');
      apps.push(app);
      const hot = await linesOf(`/v1/sheets/${id}`, alice.key);
      const framework = await linesOf(`/v1/sheets/${id}/`, alice.key);
      for (const [name, lines] of [
        ['hot', hot],
        ['framework', framework],
      ] as const) {
        assert.deepEqual(
          lines.map((l) => l.msg),
          ['incoming request', 'request completed'],
          name,
        );
        assert.match(lines[0]!.reqId, /^req-[0-9a-z]+$/, `${name}: reqId`);
      }
      assert.notEqual(hot[0]!.reqId, framework[0]!.reqId, 'one request id per request, from one counter');
      for (let i = 0; i < 2; i++) {
        const [h, f] = [hot[i]!, framework[i]!];
        assert.deepEqual(keys(h), keys(f), `line ${i}: fields`);
        assert.equal(h.level, f.level);
      }
      const [hotIn, frameworkIn] = [hot[0]!.req, framework[0]!.req];
      assert.deepEqual(keys(hotIn), keys(frameworkIn), 'req fields');
      assert.deepEqual(keys(hotIn), ['host', 'method', 'remoteAddress', 'remotePort', 'url']);
      for (const req of [hotIn, frameworkIn]) {
        assert.equal(req.method, 'GET');
        assert.equal(req.host, 'sheets.example', 'the forwarded host, as the proxy is trusted');
        assert.equal(req.remoteAddress, '203.0.113.9', 'the forwarded client address');
        assert.equal(typeof req.remotePort, 'number');
      }
      assert.equal(hotIn.url, `/v1/sheets/${id}`);
      assert.equal(frameworkIn.url, `/v1/sheets/${id}/`);
      const [hotDone, frameworkDone] = [hot[1]!, framework[1]!];
      assert.deepEqual(hotDone.res, { statusCode: 200 });
      assert.deepEqual(frameworkDone.res, { statusCode: 200 });
      assert.equal(typeof hotDone.responseTime, 'number');
      assert.equal(typeof frameworkDone.responseTime, 'number');
      assert.equal(hotDone.answeredBy, 'hot-path');
      assert.equal(frameworkDone.answeredBy, 'framework');
    });

    it('one line per request on a terminal: the same line from both paths', async () => {
      const { app, linesOf } = await listen(s, 'line');
      apps.push(app);
      const hot = await linesOf(`/v1/sheets/${id}`, alice.key);
      const framework = await linesOf(`/v1/sheets/${id}/`, alice.key);
      for (const lines of [hot, framework]) {
        assert.equal(lines.length, 1);
        assert.match(lines[0]!.msg, /^GET \/v1\/sheets\/:id 200 \d+\.\d ms$/);
      }
      assert.deepEqual(keys(hot[0]!), keys(framework[0]!));
    });

    it('metrics: both count in the same series; only the hot answer in http_hot_path_answers_total', async () => {
      const { app, url } = await listen(s, 'records');
      apps.push(app);
      const read = async () => {
        const text = await (await fetch(`${url}/metrics`)).text();
        const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
        return {
          requests: value(`http_requests_total{${ROUTE_SERIES}}`),
          timed: value(`http_request_duration_seconds_count{${ROUTE_SERIES}}`),
          hot: value('http_hot_path_answers_total{route="/v1/sheets/:id"}'),
        };
      };
      const get = (path: string) => fetch(url + path, { headers: { authorization: `Bearer ${alice.key}` } }).then((r) => r.text());
      const start = await read();
      await get(`/v1/sheets/${id}`);
      const afterHot = await read();
      assert.deepEqual(afterHot, { requests: start.requests + 1, timed: start.timed + 1, hot: start.hot + 1 });
      await get(`/v1/sheets/${id}/`);
      assert.deepEqual(await read(), { requests: afterHot.requests + 1, timed: afterHot.timed + 1, hot: afterHot.hot });
    });

    it('the rate limiter fails closed: an account whose plan has no limit is refused on both paths, not served unlimited', async () => {
      const bob = await s.user('pro');
      const sheet = (await s.req('POST', '/v1/sheets', { key: bob.key, body: { title: 'limitless?' } })).body.sheet;
      // A plan this release does not know (written by a newer release, then rolled back).
      await s.c.db
        .updateTable('users')
        .set({ plan: 'enterprise' as never })
        .where('id', '=', bob.userId)
        .execute();
      for (const path of [`/v1/sheets/${sheet.id}`, `/v1/sheets/${sheet.id}/`, '/v1/sheets']) {
        // Before this was refused, the memory store never answered such a request: hence the deadline.
        const res = await fetch(s.url + path, { headers: { authorization: `Bearer ${bob.key}` }, signal: AbortSignal.timeout(10_000) });
        assert.equal(res.status, 503, path);
        const body = await res.json();
        assert.equal(body.code, 'unavailable');
        assert.match(body.error, /plan 'enterprise'/);
        assert.equal(res.headers.get('ratelimit-limit'), null, path);
      }
    });
  });
}
