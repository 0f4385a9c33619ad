import { openDatabase } from '../src/db/index.js';
import { systemClock } from '../src/clock.js';
import { createOutbox, createTxRunner } from '../src/events/outbox.js';
import { startReceiver, type Received } from '../test/webhooks-helpers.js';
import { percentile, runPaced } from './load.js';
import type { Row } from './report.js';
import { personalWorkspaceId } from '../src/lib/workspace-ids.js';

const BACKLOG = 5000;
const STEADY_RATE = 200;

interface Ctx {
  base: string;
  auth: Record<string, string>;
  durationS: number;
  dataDir: string;
  databaseUrl?: string;
  userId: string;
  /** The server's CPU time so far (ms, all threads): the backlog's CPU per delivery moves less between runs than its rate. */
  serverCpuMs: () => number;
  log: (s: string) => void;
  notes: string[];
}

/** Waits until `n` of the received deliveries pass `counted` (all, by default). */
async function waitFor(received: Received[], n: number, timeoutMs: number, counted: (r: Received) => boolean = () => true) {
  const end = Date.now() + timeoutMs;
  const count = () => received.filter(counted).length;
  while (count() < n && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return count() >= n;
}

/**
 * Deletes the bench account's webhooks. A kept data dir may hold one of an interrupted run, pointing at
 * a receiver long gone: every POST of the run would then also queue a delivery that fails and is retried.
 * bench/run.ts calls it before the first part.
 */
export async function removeWebhooks(base: string, auth: Record<string, string>): Promise<number> {
  const old = (await (await fetch(`${base}/v1/webhooks`, { headers: auth })).json()) as { webhooks?: { id: string }[] };
  for (const w of old.webhooks ?? []) await fetch(`${base}/v1/webhooks/${w.id}`, { method: 'DELETE', headers: auth });
  return old.webhooks?.length ?? 0;
}

/**
 * Deliveries to a loopback HTTPS receiver (certificate from a throwaway CA the server trusts via
 * WEBHOOK_CA_FILE). Throughput: a backlog of 5,000 events committed at once through the outbox
 * code, timed from the first receipt to the last. Latency: POST /v1/sheets paced at 200/s (runPaced),
 * from the event's created_at (stamped just before the commit) to the receiver reading the body.
 */
export async function benchWebhooks(o: Ctx): Promise<Row[]> {
  const receiver = await startReceiver();
  const rows: Row[] = [];
  let cleanup = async () => {};
  try {
    const hook = await fetch(`${o.base}/v1/webhooks`, {
      method: 'POST',
      headers: { ...o.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['sheet.created'], name: 'bench' }),
    });
    if (hook.status !== 200) {
      o.notes.push(`Webhooks: not measured, registering the receiver answered ${hook.status} ${await hook.text()}`);
      return rows;
    }
    const hookId = ((await hook.json()) as { webhook: { id: string } }).webhook.id;
    cleanup = async () => {
      const r = await fetch(`${o.base}/v1/webhooks/${hookId}`, { method: 'DELETE', headers: o.auth });
      if (r.status !== 200) o.notes.push(`Webhooks: deleting the bench's webhook answered ${r.status} ${await r.text()}`);
    };
    receiver.received.length = 0;

    const cpuBefore = o.serverCpuMs();
    const handle = await openDatabase({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
    const outbox = createOutbox(systemClock);
    await createTxRunner(
      handle.db,
      outbox,
    )(async (trx) => {
      for (let i = 0; i < BACKLOG; i++) {
        await outbox.emit(trx, personalWorkspaceId(o.userId), 'sheet.created', { sheet_id: `sht_bench${i}`, name: 'backlog', created_at: new Date().toISOString() }, o.userId);
      }
    });
    await handle.close();
    const all = await waitFor(receiver.received, BACKLOG, 120_000);
    const got = receiver.received.length;
    const span = (receiver.received[got - 1].at - receiver.received[0].at) / 1000;
    const rate = (got - 1) / span;
    const cpuPerDelivery = ((o.serverCpuMs() - cpuBefore) * 1000) / got;
    o.log(`webhooks: ${got}/${BACKLOG} backlog deliveries in ${span.toFixed(2)} s = ${rate.toFixed(0)}/s, server CPU ${cpuPerDelivery.toFixed(0)} µs a delivery`);
    if (!all) o.notes.push(`Webhooks: only ${got} of ${BACKLOG} backlog events arrived within 120 s.`);
    rows.push({ name: `Webhook deliveries/s (backlog of ${BACKLOG})`, value: rate, unit: '/s', target: '>= 1000/s', met: rate >= 1000 });
    rows.push({ name: '  (server CPU per backlog delivery, all threads)', value: cpuPerDelivery, unit: 'µs', target: '' });
    // The receiver has every backlog event, but the server is still recording their outcomes: the latency part starts once it is done.
    const settled = await openDatabase({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
    try {
      const unrecorded = async () =>
        Number(
          (
            await settled.db
              .selectFrom('deliveries')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('status', '=', 'pending')
              .executeTakeFirstOrThrow()
          ).n,
        );
      for (const end = Date.now() + 60_000; (await unrecorded()) > 0 && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await settled.close();
    }

    receiver.received.length = 0;
    const body = JSON.stringify({ title: 'wh-latency', content: { col1: '<p>latency probe</p>' } });
    // A second of the same load first, not counted (as every other part warms up): its events are named apart.
    await runPaced({ url: o.base, method: 'POST', path: '/v1/sheets', body: body.replace('wh-latency', 'wh-warm-up'), headers: o.auth, connections: 10, durationS: 1, rate: STEADY_RATE });
    const load = await runPaced({ url: o.base, method: 'POST', path: '/v1/sheets', body, headers: o.auth, connections: 10, durationS: o.durationS, rate: STEADY_RATE });
    const sent = load.requests - load.failures;
    // Counted by name: the warm-up's events arrive in the same list.
    const measured = (r: Received) => r.body?.data?.name === 'wh-latency';
    await waitFor(receiver.received, sent, 30_000, measured);
    const lat = receiver.received
      .filter(measured)
      .map((r) => performance.timeOrigin + r.at - Date.parse(r.body.data.created_at))
      .sort((a, b) => a - b);
    const [p50, p99] = [percentile(lat, 50), percentile(lat, 99)];
    o.log(`webhooks at ${STEADY_RATE}/s: ${lat.length}/${sent} received, commit-to-receipt p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    rows.push({ name: `Webhook commit-to-receipt p50 at ${STEADY_RATE} events/s`, value: p50, unit: 'ms', target: '', met: undefined });
    rows.push({ name: `Webhook commit-to-receipt p99 at ${STEADY_RATE} events/s`, value: p99, unit: 'ms', target: '<= 100 ms', met: p99 <= 100 });
    if (lat.length < sent) o.notes.push(`Webhooks: ${lat.length} of ${sent} steady-rate events arrived within 30 s of the load's end.`);
  } finally {
    await cleanup(); // no retries left behind to load a later run on the same data
    await receiver.close();
  }
  return rows;
}
