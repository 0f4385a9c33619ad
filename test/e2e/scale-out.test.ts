import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { assertError, createPgDatabase, type Res } from '../helpers.js';
import { startProcess, type ServerProcess } from '../processes.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';

const PG = process.env.TEST_POSTGRES_URL;
const REDIS = process.env.TEST_REDIS_URL;
const skip = !PG
  ? 'TEST_POSTGRES_URL is not set: the scale-out tests need a real PostgreSQL shared by two server processes'
  : !REDIS
    ? 'TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:56379): the scale-out tests need a real Redis shared by two server processes'
    : undefined;

const remaining = (r: Res) => r.headers.get('ratelimit-remaining');

describe('scale-out: two server processes on one PostgreSQL and one Redis', { skip }, () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let admin: Container;
  let a: ServerProcess;
  let b: ServerProcess;
  const secretKey = randomBytes(32).toString('hex');
  /** Failed authentications from 127.0.0.1 so far, counted in Redis over both processes. */
  let failures = 0;

  before(async () => {
    pg = await createPgDatabase();
    // The test's own container migrates the database first and creates accounts, like the CLI would.
    admin = await createContainer(
      loadConfig({
        DATABASE_URL: pg.url,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sw-admin-')),
        LOG_LEVEL: 'silent',
        SECRET_KEY: secretKey,
      }),
    );
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: REDIS!,
      REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
      SECRET_KEY: secretKey,
      AUTH_FAILURE_LIMIT: '20',
    };
    [a, b] = await Promise.all([startProcess(env), startProcess(env)]);
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await admin?.close();
    await pg?.drop();
  });

  const user = async (plan: 'free' | 'pro' | 'business') => {
    const r = await admin.accounts.create({ name: `u-${randomBytes(3).toString('hex')}`, plan });
    return { userId: r.user_id, key: r.api_key };
  };

  it('both processes are ready, with the database and Redis', async () => {
    for (const p of [a, b]) {
      const r = await p.req('GET', '/readyz');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { success: true, status: 'ready', checks: { database: 'ok', redis: 'ok' } });
      assert.equal((await p.req('GET', '/healthz')).status, 200);
    }
  });

  it('the free limit is exact across processes: 30 pass, alternating, the 31st is 429 on both', async () => {
    const u = await user('free');
    for (let i = 1; i <= 30; i++) {
      const p = i % 2 ? a : b;
      const r = await p.req('GET', '/v1/sheets', { key: u.key });
      assert.equal(r.status, 200, `request ${i}`);
      assert.equal(remaining(r), String(30 - i), `RateLimit-Remaining after request ${i}`);
      assert.equal(r.headers.get('ratelimit-limit'), '30');
    }
    for (const p of [a, b]) {
      const r = await p.req('GET', '/v1/sheets', { key: u.key });
      assertError(r, 429, 'rate_limited', /free plan allows 30 requests per minute/);
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
    }
  });

  it('30 concurrent requests split over both processes all pass, and not one more', async () => {
    const u = await user('free');
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).req('GET', '/v1/sheets', { key: u.key })));
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 30, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 429).length, 10);
    const left = results
      .filter((r) => r.status === 200)
      .map((r) => Number(remaining(r)))
      .sort((x, y) => x - y);
    assert.deepEqual(
      left,
      Array.from({ length: 30 }, (_, i) => i),
      'each passing request saw a distinct count',
    );
  });

  it('a member removed on one process is out on the next request on the other (teams: no cached role)', async () => {
    const [owner, member] = [await user('pro'), await user('pro')];
    const team = (await a.req('POST', '/v1/workspaces', { key: owner.key, body: { name: 'Both processes' } })).body.workspace.id;
    const inv = await a.req('POST', `/v1/workspaces/${team}/invitations`, { key: owner.key, body: { role: 'editor' } });
    assert.equal((await b.req('POST', `/v1/invitations/${inv.body.invitation.token}/accept`, { key: member.key })).status, 200);
    const sheet = await a.req('POST', '/v1/sheets', { key: owner.key, body: { title: 'shared', workspace_id: team } });
    assert.equal(sheet.status, 200, JSON.stringify(sheet.body));
    const id = sheet.body.sheet.id;
    for (const p of [a, b]) {
      assert.equal((await p.req('GET', `/v1/sheets/${id}`, { key: member.key })).status, 200);
      assert.equal((await p.req('GET', `/v1/sheets?workspace_id=${team}`, { key: member.key })).status, 200);
    }
    // Both processes have served the member; the removal goes through a, and b is asked right after.
    assert.equal((await a.req('DELETE', `/v1/workspaces/${team}/members/${member.userId}`, { key: owner.key })).status, 200);
    const outside = (r: Res, role: string) => assert.deepEqual([r.status, r.body.code, r.body.required_role], [403, 'forbidden', role], JSON.stringify(r.body));
    for (const p of [b, a]) {
      outside(await p.req('GET', `/v1/sheets/${id}`, { key: member.key }), 'viewer');
      outside(await p.req('PUT', `/v1/sheets/${id}`, { key: member.key, body: { title: 'after removal' } }), 'editor');
      outside(await p.req('GET', `/v1/sheets?workspace_id=${team}`, { key: member.key }), 'viewer');
    }
    assert.equal((await b.req('GET', `/v1/sheets/${id}`, { key: owner.key })).body.sheet.title, 'shared', 'nothing the removed member sent after removal was written');
  });

  it('a key disabled through one process is refused by the other on its next request', async () => {
    const u = await user('pro');
    const created = await a.req('POST', '/v1/api-keys', { key: u.key, body: { name: 'ci' } });
    assert.equal(created.status, 200);
    const second: string = created.body.api_key;
    assert.equal((await b.req('GET', '/v1/sheets', { key: second })).status, 200);
    const disabled = await a.req('DELETE', `/v1/api-keys/${created.body.id}`, { key: u.key });
    assert.deepEqual(disabled.body, { success: true, id: created.body.id, status: 'disabled' });
    assertError(await b.req('GET', '/v1/sheets', { key: second }), 401, 'unauthorized', /disabled/);
    assertError(await a.req('GET', '/v1/sheets', { key: second }), 401, 'unauthorized', /disabled/);
    failures += 2;
    assert.equal((await b.req('GET', '/v1/sheets', { key: u.key })).status, 200, 'the first key still works');
  });

  it('failed authentication is counted per address over both processes and never blocks a valid key', async () => {
    const u = await user('pro');
    for (let i = failures + 1; i <= 20; i++) {
      const r = await (i % 2 ? a : b).req('GET', '/v1/sheets', { key: `sk_${randomBytes(32).toString('base64url')}` });
      assertError(r, 401, 'unauthorized');
    }
    for (const p of [a, b]) assertError(await p.req('GET', '/v1/sheets', { key: `sk_${'z'.repeat(43)}` }), 429, 'rate_limited', /failed authentications/);
    for (const p of [a, b]) assert.equal((await p.req('GET', '/v1/sheets', { key: u.key })).status, 200);
  });

  it('/metrics of each process counts its requests and rate-limit rejections', async () => {
    const text = (await a.req('GET', '/metrics')).body as string;
    assert.match(text, /http_requests_total\{method="GET",route="\/v1\/sheets",status="200"\} \d+/);
    assert.match(text, /rate_limit_rejections_total\{kind="plan"\} [1-9]/);
    assert.match(text, /rate_limit_rejections_total\{kind="auth_failure"\} [1-9]/);
    assert.match(text, /process_resident_memory_bytes \d+/);
  });
});

describe('scale-out: webhook workers in two processes share one queue', { skip }, () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let admin: Container;
  let receiver: Receiver;
  let env: Record<string, string>;
  const procs: ServerProcess[] = [];
  const secretKey = randomBytes(32).toString('hex');

  before(async () => {
    pg = await createPgDatabase();
    admin = await createContainer(loadConfig({ DATABASE_URL: pg.url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sw-admin-')), LOG_LEVEL: 'silent', SECRET_KEY: secretKey }));
    receiver = await startReceiver();
    env = webhookEnv({
      DATABASE_URL: pg.url,
      REDIS_URL: REDIS!,
      REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
      SECRET_KEY: secretKey,
    });
    procs.push(...(await Promise.all([startProcess(env), startProcess(env)])));
  });

  after(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await receiver?.close();
    await admin?.close();
    await pg?.drop();
  });

  const setup = async () => {
    const r = await admin.accounts.create({ name: `hooks-${randomBytes(3).toString('hex')}`, plan: 'business' });
    const hook = await procs[0].req('POST', '/v1/webhooks', { key: r.api_key, body: { url: receiver.url, events: ['sheet.created'] } });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    receiver.received.length = 0;
    return r.api_key;
  };

  /** Delivery ids seen by the receiver, and each sheet id (from the envelope) with how often it arrived. */
  const tally = () => {
    const deliveries = new Set(receiver.received.map((r) => String(r.headers['x-service-delivery'])));
    const sheets = new Map<string, number>();
    for (const r of receiver.received) sheets.set(r.body.data.sheet_id, (sheets.get(r.body.data.sheet_id) ?? 0) + 1);
    return { deliveries, sheets };
  };

  it('100 events made through both processes arrive exactly 100 times', async () => {
    const key = await setup();
    const created = await Promise.all(Array.from({ length: 100 }, (_, i) => procs[i % 2].req('POST', '/v1/sheets', { key, body: { title: `s${i}` } })));
    assert.ok(created.every((r) => r.status === 200));
    await receiver.waitFor(100, 30_000);
    await new Promise((r) => setTimeout(r, 1500)); // room for any duplicate to show up
    const { deliveries, sheets } = tally();
    assert.equal(receiver.received.length, 100, 'no duplicates');
    assert.equal(deliveries.size, 100);
    assert.deepEqual([...sheets.keys()].sort(), created.map((r) => r.body.id).sort());
    const byProcess = await Promise.all(procs.map(async (p) => (await p.req('GET', '/metrics')).body as string));
    const attempts = byProcess.map((t) => Number(/^webhook_delivery_attempts_total (\d+)/m.exec(t)?.[1] ?? NaN));
    assert.equal(attempts[0] + attempts[1], 100, `attempts per process: ${attempts.join(', ')}`);
    for (const t of byProcess) assert.match(t, /^webhook_queue_depth 0$/m);
  });

  it('SIGTERM to every process during a backlog loses nothing; a new process finishes the queue', async () => {
    const key = await setup();
    receiver.respond = () => ({ delayMs: 250 });
    const created = await Promise.all(Array.from({ length: 60 }, (_, i) => procs[i % 2].req('POST', '/v1/sheets', { key, body: { title: `b${i}` } })));
    assert.ok(created.every((r) => r.status === 200));
    await receiver.waitFor(8, 30_000);
    const codes = await Promise.all(procs.splice(0).map((p) => p.stop('SIGTERM')));
    assert.deepEqual(codes, [0, 0], 'both processes drained and exited cleanly');
    const atStop = receiver.received.length;
    assert.ok(atStop < 60, `a backlog was left at SIGTERM (received ${atStop})`);

    receiver.respond = () => undefined;
    procs.push(await startProcess(env));
    await receiver.waitFor(60, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    const { deliveries, sheets } = tally();
    assert.deepEqual([...sheets.keys()].sort(), created.map((r) => r.body.id).sort(), 'every event arrived');
    assert.equal(deliveries.size, 60);
    assert.equal(receiver.received.length, 60, 'in-flight deliveries were finished and recorded, so none was sent twice');
  });

  it('split deployment: an API-only process and a worker-only process (npm run worker) deliver together', async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    const [api, worker] = await Promise.all([startProcess(env, 'api'), startProcess(env, 'worker')]);
    procs.push(api, worker);
    assert.equal(worker.url, '', 'the worker serves no HTTP');
    assert.equal(api.logs.find((l) => l.msg === 'Sheet Workspace is up')?.webhookWorker, false);
    const key = await setup();
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => api.req('POST', '/v1/sheets', { key, body: { title: `w${i}` } })));
    await receiver.waitFor(20, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual([...tally().sheets.keys()].sort(), created.map((r) => r.body.id).sort());
    assert.equal(receiver.received.length, 20);
  });
});

describe('scale-out: a process whose Redis is down, and RATE_LIMIT_DISABLED', { skip: PG ? undefined : skip }, () => {
  it('serves uncounted (fail open), logs the outage once, reports it in /readyz; the switch warns at start', async () => {
    const pg = await createPgDatabase();
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const closedPort = (srv.address() as net.AddressInfo).port;
    await new Promise((r) => srv.close(r));
    const admin = await createContainer(loadConfig({ DATABASE_URL: pg.url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sw-admin-')), LOG_LEVEL: 'silent' }));
    const [down, unlimited] = await Promise.all([startProcess({ DATABASE_URL: pg.url, REDIS_URL: `redis://127.0.0.1:${closedPort}` }), startProcess({ DATABASE_URL: pg.url, RATE_LIMIT_DISABLED: '1' })]);
    try {
      const u = await admin.accounts.create({ name: 'free-user', plan: 'free' });
      for (let i = 0; i < 35; i++) assert.equal((await down.req('GET', '/v1/sheets', { key: u.api_key })).status, 200);
      const ready = await down.req('GET', '/readyz');
      assert.deepEqual([ready.status, ready.body.status, ready.body.checks], [200, 'degraded', { database: 'ok', redis: 'down' }]);
      const outage = down.logs.filter((l) => /Redis is unreachable/.test(String(l.msg)));
      assert.equal(outage.length, 1, 'the outage is logged once, not once per request');
      assert.equal(outage[0].level, 40);

      for (let i = 0; i < 35; i++) assert.equal((await unlimited.req('GET', '/v1/sheets', { key: u.api_key })).status, 200);
      const warning = unlimited.logs.find((l) => /RATE_LIMIT_DISABLED is set/.test(String(l.msg)));
      assert.equal(warning?.level, 40, 'a warning at start');
    } finally {
      await Promise.all([down.stop(), unlimited.stop()]);
      await admin.close();
      await pg.drop();
    }
  });
});
