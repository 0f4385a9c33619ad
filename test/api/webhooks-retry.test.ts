import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, startServer, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';
import { manualClock } from '../../src/clock.js';
import { DEFAULT_LEASE_MS, DEFAULT_RETRY_SCHEDULE } from '../../src/config.js';

const M = 60_000;

for (const dialect of dialects()) {
  describe(`webhook retries and disable [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-01T00:00:00.000Z'));
    let rcv: Receiver;
    const { s } = useServer(dialect, { env: webhookEnv(), clock, worker: { pollMs: 20 } });
    before(async () => {
      rcv = await startReceiver();
    });
    after(async () => {
      await rcv.close();
    });

    const settle = async () => {
      s.worker!.wake();
      await s.worker!.idle();
    };

    it('runs the spec schedule (1m, 5m, 30m, 2h, 24h) on the clock, then disables the webhook and stops its pending deliveries', async () => {
      assert.deepEqual(DEFAULT_RETRY_SCHEDULE, [1 * M, 5 * M, 30 * M, 120 * M, 1440 * M]);
      const u = await s.user('pro');
      const hook = (await s.req('POST', '/v1/webhooks', { key: u.key, body: { url: rcv.url, events: ['*'] } })).body.webhook;
      rcv.respond = () => ({ status: 503, body: 'down for maintenance' });
      const started = Date.now();

      await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'first' } });
      await rcv.waitFor(1);
      await settle();
      const firstId = rcv.received[0].headers['x-service-delivery'];
      const sends = () => rcv.received.filter((r) => r.headers['x-service-delivery'] === firstId).length;

      for (const [i, wait] of DEFAULT_RETRY_SCHEDULE.entries()) {
        if (i === 4) {
          // A second event, queued before the last retry; it must be stopped by the disable.
          await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'second' } });
          await settle();
        }
        clock.advance(wait - 1000);
        await settle();
        assert.equal(sends(), i + 1, `retry ${i + 1} not sent before it is due`);
        clock.advance(1000);
        await settle();
        assert.equal(sends(), i + 2, `retry ${i + 1} sent when due`);
      }
      assert.ok(Date.now() - started < 5000, 'the whole 26-hour schedule ran in seconds');
      const same = new Set(rcv.received.filter((r) => r.body.data.name === 'first').map((r) => r.headers['x-service-delivery']));
      assert.equal(same.size, 1, 'X-Service-Delivery is stable across retries');

      const listed = (await s.req('GET', '/v1/webhooks', { key: u.key })).body.webhooks[0];
      assert.equal(listed.status, 'disabled');
      assert.equal(listed.disabled_at, clock.now().toISOString());
      assert.match(listed.disabled_reason, /failed 6 times.*HTTP 503/);

      const log = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: u.key })).body;
      const first = log.deliveries.find((d: any) => d.id === firstId);
      assert.equal(first.status, 'failed');
      assert.equal(first.attempt_count, 6);
      assert.deepEqual(
        first.attempts.map((a: any) => a.status_code),
        [503, 503, 503, 503, 503, 503],
      );
      assert.equal(first.attempts[0].response_body, 'down for maintenance');
      const second = log.deliveries.find((d: any) => d.id !== firstId);
      assert.equal(second.status, 'stopped');
      assert.match(second.stopped_reason, /disabled/);

      // Disabled: no new deliveries, even much later.
      const before = rcv.received.length;
      await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'while disabled' } });
      clock.advance(48 * 60 * M);
      await settle();
      assert.equal(rcv.received.length, before);

      // Enable: new events flow again.
      rcv.respond = () => undefined;
      const en = await s.req('POST', `/v1/webhooks/${hook.id}/enable`, { key: u.key });
      assert.equal(en.body.webhook.status, 'enabled');
      assert.equal(en.body.webhook.disabled_at, null);
      await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'after enable' } });
      const got = await rcv.waitFor(before + 1);
      assert.equal(got[before].body.data.name, 'after enable');

      // Redeliver the failed one: the same delivery id arrives and now succeeds.
      const re = await s.req('POST', `/v1/webhooks/${hook.id}/deliveries/${firstId}/redeliver`, { key: u.key });
      assert.equal(re.status, 200);
      assert.equal(re.body.delivery.status, 'pending');
      await rcv.waitFor(before + 2);
      await settle();
      assert.equal(rcv.received.at(-1)!.headers['x-service-delivery'], firstId);
      const after = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: u.key })).body.deliveries.find((d: any) => d.id === firstId);
      assert.equal(after.status, 'delivered');
      assert.equal(after.attempt_count, 7);
    });
  });

  describe(`webhook worker crash and restart [${dialect}]`, () => {
    it('kill a worker mid-backlog, start a new server on the same database: every delivery arrives', async () => {
      const clock = manualClock(new Date('2026-05-02T00:00:00.000Z'));
      const rcv = await startReceiver();
      rcv.respond = () => ({ delayMs: 30 });
      const a = await startServer(dialect, { env: webhookEnv(), clock, worker: { pollMs: 50, perWebhook: 3 } });
      let b: TestServer | undefined;
      try {
        const u = await a.user('pro');
        await a.req('POST', '/v1/webhooks', { key: u.key, body: { url: rcv.url, events: ['sheet.created'] } });
        const titles: string[] = [];
        for (let i = 0; i < 40; i++) {
          titles.push(`b${i}`);
          await a.req('POST', '/v1/sheets', { key: u.key, body: { title: `b${i}` } });
        }
        await rcv.waitFor(5);
        await a.worker!.kill();
        const atKill = rcv.received.length;
        assert.ok(atKill < 40, `killed mid-backlog (${atKill} of 40 had arrived)`);

        b = await startServer(dialect, { env: webhookEnv(), clock, dataDir: a.dataDir, databaseUrl: a.c.config.databaseUrl, worker: { pollMs: 50 } });
        await b.worker!.idle();
        // The dead worker's leases still hold; once they expire the new worker takes those deliveries too.
        clock.advance(DEFAULT_LEASE_MS + 1000);
        b.worker!.wake();
        await rcv.waitFor(40, 15_000);
        await b.worker!.idle();

        const names = new Set(rcv.received.map((r) => r.body.data.name));
        assert.deepEqual([...names].sort(), [...titles].sort(), 'every event arrived');
        const rows = await b.c.db.selectFrom('deliveries').select(['status']).execute();
        assert.equal(rows.length, 40);
        assert.ok(rows.every((r) => r.status === 'delivered'));
        const dupes = rcv.received.length - 40;
        assert.ok(dupes <= 6, `at most the deliveries not recorded when it died arrive twice: 2 x perWebhook = 6 (got ${dupes})`);
      } finally {
        await b?.close();
        await a.close();
        await rcv.close();
      }
    });
  });
}

for (const dialect of dialects()) {
  describe(`WEBHOOK_RETRY_SCHEDULE on a running server [${dialect}]`, () => {
    it('retries on the configured steps, picked up by the 1 s poll, and disables the webhook after the last', async () => {
      const steps = [200, 600];
      const rcv = await startReceiver();
      rcv.respond = () => ({ status: 500, body: 'nope' });
      // The real clock and the worker's default 1 s poll: what an operator gets with this setting.
      const s = await startServer(dialect, { env: webhookEnv({ WEBHOOK_RETRY_SCHEDULE: '200ms,600ms' }), worker: true });
      try {
        const u = await s.user('pro');
        const hook = (await s.req('POST', '/v1/webhooks', { key: u.key, body: { url: rcv.url, events: ['sheet.created'] } })).body.webhook;
        await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'short schedule' } });
        const got = await rcv.waitFor(3, 10_000);
        for (const [i, step] of steps.entries()) {
          const gap = got[i + 1].at - got[i].at;
          assert.ok(gap >= step - 2, `retry ${i + 1} came after ${gap.toFixed(0)} ms, not before its ${step} ms step`);
          assert.ok(gap < step + 1000 + 800, `retry ${i + 1} came after ${gap.toFixed(0)} ms: at most about one poll late`);
        }
        let listed: any;
        for (let i = 0; i < 100 && listed?.status !== 'disabled'; i++) {
          await new Promise((r) => setTimeout(r, 20));
          listed = (await s.req('GET', '/v1/webhooks', { key: u.key })).body.webhooks[0];
        }
        assert.equal(listed.status, 'disabled');
        assert.match(listed.disabled_reason, /failed 3 times \(the first try and 2 retries\).*HTTP 500/);
        const d = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: u.key })).body.deliveries[0];
        assert.equal(d.status, 'failed');
        assert.equal(d.attempt_count, 3);
        assert.equal(d.next_attempt_at, null);
        assert.equal(new Set(got.map((r) => r.headers['x-service-delivery'])).size, 1);
        assert.equal(rcv.received.length, 3, 'no try after the last step');
      } finally {
        await s.close();
        await rcv.close();
      }
    });
  });

  describe(`attempt_count counts every attempt row [${dialect}]`, () => {
    it('an attempt that finishes after its webhook was disabled is logged and counted; the delivery stays stopped', async () => {
      const clock = manualClock(new Date('2026-05-03T00:00:00.000Z'));
      const rcv = await startReceiver();
      rcv.respond = (r) => ({ status: 500, delayMs: r.body.data.name === 'slow' ? 600 : 0 });
      // One retry; a lease far longer than the test, so only the disable can take the in-flight delivery away.
      const env = webhookEnv({ WEBHOOK_RETRY_SCHEDULE: '1m', WEBHOOK_LEASE_MS: String(24 * 60 * M) });
      const s = await startServer(dialect, { env, clock, worker: { pollMs: 20 } });
      try {
        const u = await s.user('pro');
        const hook = (await s.req('POST', '/v1/webhooks', { key: u.key, body: { url: rcv.url, events: ['sheet.created'] } })).body.webhook;
        await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'fails' } });
        await rcv.waitFor(1);
        await s.worker!.idle();
        await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'slow' } });
        await rcv.waitFor(2); // in flight: its 500 comes 600 ms later
        clock.advance(M);
        s.worker!.wake();
        await rcv.waitFor(3); // the last retry of 'fails': it disables the webhook and stops 'slow'
        await s.worker!.idle();

        const log = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: u.key })).body.deliveries;
        const byName = new Map(log.map((d: any) => [JSON.parse(rcv.received.find((r) => r.headers['x-service-delivery'] === d.id)!.raw.toString()).data.name, d]));
        const fails: any = byName.get('fails');
        const slow: any = byName.get('slow');
        assert.equal(fails.status, 'failed');
        assert.equal(fails.attempt_count, 2);
        assert.equal(slow.status, 'stopped', 'a late result does not move a stopped delivery');
        assert.match(slow.stopped_reason, /disabled/);
        assert.equal(slow.attempts.length, 1);
        assert.equal(slow.attempts[0].status_code, 500);
        assert.equal(slow.attempt_count, slow.attempts.length, 'attempt_count matches the attempts logged');
        assert.equal((await s.req('GET', '/v1/webhooks', { key: u.key })).body.webhooks[0].status, 'disabled');
      } finally {
        await s.close();
        await rcv.close();
      }
    });
  });
}
