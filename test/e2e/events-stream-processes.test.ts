import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Container } from '../../src/container.js';
import { startTwoPgProcesses, type ServerProcess } from '../processes.js';
import { openStream } from '../sse-helpers.js';

/**
 * Two real server processes on one PostgreSQL database. The stream's own poll is set to ten minutes, so an
 * event written through the other process can only arrive by LISTEN/NOTIFY.
 */
const pgUrl = process.env.TEST_POSTGRES_URL;
describe('event stream across two processes on PostgreSQL', { skip: pgUrl ? false : 'needs TEST_POSTGRES_URL' }, () => {
  let pair: Awaited<ReturnType<typeof startTwoPgProcesses>>;
  let admin: Container;
  let procs: ServerProcess[] = [];
  before(async () => {
    pair = await startTwoPgProcesses({ EVENT_STREAM_POLL_MS: '600000' });
    ({ admin, procs } = pair);
  });
  after(() => pair?.stop());

  it("a stream on one process receives the other process's writes through NOTIFY, not the poll", { timeout: 20_000 }, async () => {
    const u = await admin.accounts.create({ name: `u-${randomBytes(3).toString('hex')}`, plan: 'pro' });
    const stream = await openStream(`${procs[1].url}/v1/events/stream?events=sheet.created,sheet.updated`, { authorization: `Bearer ${u.api_key}` });
    try {
      assert.equal(stream.res.status, 200);
      const created = await procs[0].req('POST', '/v1/sheets', { key: u.api_key, body: { title: 'from process A' } });
      assert.equal(created.status, 200);
      const [first] = await stream.waitFor(1);
      assert.equal(first.event, 'sheet.created');
      assert.equal(first.data.data.sheet_id, created.body.id);
      const updated = await procs[0].req('PUT', `/v1/sheets/${created.body.id}`, { key: u.api_key, body: { content: { col1: '<p>again</p>' } } });
      assert.equal(updated.status, 200);
      const [, second] = await stream.waitFor(2);
      assert.equal(second.event, 'sheet.updated');
      assert.deepEqual(second.data.data.columns, ['col1']);
    } finally {
      await stream.close();
    }
  });

  /** The child's event_stream_outbox_reads_total{kind="shared"} from its /metrics (loopback may read it). */
  async function sharedReads(proc: ServerProcess): Promise<number> {
    const text = await (await fetch(`${proc.url}/metrics`)).text();
    return Number(/^event_stream_outbox_reads_total\{kind="shared"\} (\d+)/m.exec(text)?.[1] ?? 0);
  }

  /** Until the child has started no read for 300 ms. */
  async function settled(proc: ServerProcess): Promise<number> {
    for (let seen = -1; ;) {
      const now = await sharedReads(proc);
      if (now === seen) return now;
      seen = now;
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  it("another process's commit wakes only the writing account's streams, with one read", { timeout: 20_000 }, async () => {
    const name = () => `u-${randomBytes(3).toString('hex')}`;
    const [a, b] = [await admin.accounts.create({ name: name(), plan: 'pro' }), await admin.accounts.create({ name: name(), plan: 'pro' })];
    const open = (key: string) => openStream(`${procs[1].url}/v1/events/stream`, { authorization: `Bearer ${key}` });
    const aStreams = [await open(a.api_key), await open(a.api_key)];
    const bStreams = [await open(b.api_key), await open(b.api_key)];
    try {
      const before = await settled(procs[1]);
      const created = await procs[0].req('POST', '/v1/sheets', { key: a.api_key, body: { title: 'A only, from process 0' } });
      assert.equal(created.status, 200);
      for (const x of aStreams) assert.equal((await x.waitFor(1))[0].data.data.sheet_id, created.body.id);
      assert.equal((await settled(procs[1])) - before, 1, "the NOTIFY named account A: one read for A's streams, none for B's");
      for (const x of bStreams) assert.equal(x.received.length, 0);
    } finally {
      await Promise.all([...aStreams, ...bStreams].map((x) => x.close()));
    }
  });
});
