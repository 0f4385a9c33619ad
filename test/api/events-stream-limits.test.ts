import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { openStream } from '../sse-helpers.js';

/**
 * Issue 31, finding 3: open event streams are capped per credential and per client address (429 with
 * Retry-After), and a commit wakes only the streams of the account it wrote for, which one outbox
 * query serves together (counted by event_stream_outbox_reads_total, no mocks).
 */
async function eventually(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), `timed out waiting for: ${what}`);
}

for (const dialect of dialects()) {
  describe(`event stream caps and per-account wake [${dialect}]`, () => {
    // The poll is ten minutes, so every read below is one a wake caused.
    const { s } = useServer(dialect, { env: { EVENT_STREAM_MAX_PER_CREDENTIAL: '3', EVENT_STREAM_MAX_PER_ADDRESS: '5', EVENT_STREAM_POLL_MS: '600000' } });
    /** Until no read has started for 300 ms (a read is counted when it starts). */
    const settle = async () => {
      for (let seen = -1; seen !== s.c.events.outboxReads();) {
        seen = s.c.events.outboxReads();
        await new Promise((r) => setTimeout(r, 300));
      }
    };

    const open = (key: string) => openStream(`${s.url}/v1/events/stream`, { authorization: `Bearer ${key}` });
    const refusedWith = async (key: string, cap: RegExp) => {
      const r = await s.req('GET', '/v1/events/stream', { key });
      assert.equal(r.status, 429, JSON.stringify(r.body));
      assert.equal(r.headers.get('retry-after'), '30');
      assert.deepEqual([r.body.success, r.body.code], [false, 'rate_limited']);
      assert.match(r.body.error, cap);
    };

    it('past 3 streams of one credential: 429 with Retry-After; closing one frees its slot', { timeout: 20_000 }, async () => {
      const alice = await s.user('free');
      const streams = await Promise.all([1, 2, 3].map(() => open(alice.key)));
      for (const x of streams) assert.equal(x.res.status, 200);
      await refusedWith(alice.key, /EVENT_STREAM_MAX_PER_CREDENTIAL/);
      // Another key of the same account has slots of its own.
      const second = (await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'second' } })).body.api_key;
      const other = await open(second);
      assert.equal(other.res.status, 200);
      await streams[0].close();
      await eventually(() => s.c.events.openStreams() === 3, 'the closed stream is gone on the server');
      const again = await open(alice.key);
      assert.equal(again.res.status, 200, 'a closed stream frees its slot');
      await Promise.all([...streams.slice(1), other, again].map((x) => x.close()));
      await eventually(() => s.c.events.openStreams() === 0, 'every stream closed');
      assert.equal(s.c.events.pendingWaits(), 0);
    });

    it('past 5 streams from one address, whatever the credentials: 429 naming the address cap', { timeout: 20_000 }, async () => {
      const [a, b] = [await s.user('pro'), await s.user('pro')];
      const streams = [...(await Promise.all([1, 2, 3].map(() => open(a.key)))), ...(await Promise.all([1, 2].map(() => open(b.key))))];
      for (const x of streams) assert.equal(x.res.status, 200);
      await refusedWith(b.key, /EVENT_STREAM_MAX_PER_ADDRESS/);
      await streams[4].close();
      await eventually(() => s.c.events.openStreams() === 4, 'one closed');
      const again = await open(b.key);
      assert.equal(again.res.status, 200);
      await Promise.all([...streams.slice(0, 4), again].map((x) => x.close()));
      await eventually(() => s.c.events.openStreams() === 0, 'every stream closed');
    });

    it("a commit of account A reads the outbox once for all of A's streams and never for B's", { timeout: 20_000 }, async () => {
      const [a, b] = [await s.user('pro'), await s.user('pro')];
      const aStreams = await Promise.all([1, 2].map(() => open(a.key)));
      const bStreams = await Promise.all([1, 2, 3].map(() => open(b.key)));
      await eventually(() => s.c.events.openStreams() === 5, 'five streams open');
      await settle();
      const reads = s.c.events.outboxReads();
      const metric = async () => (await s.c.metrics.registry.getSingleMetric('event_stream_outbox_reads_total')!.get()).values.find((v) => v.labels.kind === 'shared')?.value ?? 0;
      const sharedBefore = await metric();

      const created = await s.req('POST', '/v1/sheets', { key: a.key, body: { title: 'only A' } });
      assert.equal(created.status, 200);
      for (const x of aStreams) assert.equal((await x.waitFor(1))[0].data.data.sheet_id, created.body.id);
      await settle();
      assert.equal(s.c.events.outboxReads() - reads, 1, "one query served both of A's streams; B's streams did not read");
      assert.equal((await metric()) - sharedBefore, 1, 'the metric counts the same read');
      for (const x of bStreams) assert.equal(x.received.length, 0);

      const other = await s.req('POST', '/v1/sheets', { key: b.key, body: { title: 'only B' } });
      for (const x of bStreams) assert.equal((await x.waitFor(1))[0].data.data.sheet_id, other.body.id);
      await settle();
      assert.equal(s.c.events.outboxReads() - reads, 2, "B's commit: one more read, for B");
      for (const x of aStreams) assert.equal(x.received.length, 1);
      await Promise.all([...aStreams, ...bStreams].map((x) => x.close()));
      await eventually(() => s.c.events.openStreams() === 0, 'every stream closed');
      assert.equal(s.c.events.pendingWaits(), 0, 'no feed or poll timer left behind');
    });

    it('a stream resuming with Last-Event-ID catches up on its own, then joins the shared reads', { timeout: 20_000 }, async () => {
      const a = await s.user('pro');
      const first = await s.req('POST', '/v1/sheets', { key: a.key, body: { title: 'before' } });
      const [{ id: since }] = await s.c.db.selectFrom('outbox').select('id').where('workspace_id', '=', a.personalWorkspace).orderBy('id').execute();
      await s.req('POST', '/v1/sheets', { key: a.key, body: { title: 'missed' } });
      const live = await open(a.key);
      const resumed = await openStream(`${s.url}/v1/events/stream`, { authorization: `Bearer ${a.key}`, 'last-event-id': since });
      const [missed] = await resumed.waitFor(1);
      assert.equal(missed.data.data.name, 'missed');
      await settle();
      const reads = s.c.events.outboxReads();
      const next = await s.req('POST', '/v1/sheets', { key: a.key, body: { title: 'after' } });
      assert.equal((await resumed.waitFor(2))[1].data.data.sheet_id, next.body.id);
      assert.equal((await live.waitFor(1))[0].data.data.sheet_id, next.body.id);
      await settle();
      assert.equal(s.c.events.outboxReads() - reads, 1, 'the resumed stream and the live one share one read');
      assert.notEqual(first.body.id, next.body.id);
      await Promise.all([live.close(), resumed.close()]);
    });
  });
}
