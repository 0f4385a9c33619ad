import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { listenForOutbox, outboxNotifySql } from '../db/postgres/outbox-listen.js';
import type { Db, Dialect } from '../db/types.js';
import type { Committed, Outbox } from '../events/outbox.js';
import { decodeWake, encodeWake } from '../events/wake-payload.js';
import type { DeliveryEngine } from './delivery.js';
import type { ClaimedDelivery } from './claimed-delivery.js';

/**
 * The delivery worker: wakes on every local commit (outbox.onCommitted), on
 * NOTIFY from other processes (PostgreSQL), and on a slow poll as a safety
 * net and for retries falling due. Each wake fans new outbox rows out into
 * deliveries, then leases due deliveries and sends them, with a global
 * concurrency limit and a per-webhook cap so one slow receiver cannot hold
 * up the others.
 */
export interface WorkerDeps {
  db: Db;
  dialect: Dialect;
  outbox: Outbox;
  engine: DeliveryEngine;
  clock: Clock;
  databaseUrl?: string;
  logger?: Pick<Logger, 'warn' | 'error' | 'info'>;
}

export interface WorkerOptions {
  pollMs?: number;
  concurrency?: number;
  perWebhook?: number;
  /** Per-attempt time limit; the spec's 5 s unless a test needs a shorter one. */
  timeoutMs?: number;
  /** Listen for NOTIFY from other processes (PostgreSQL only). Default true. */
  listen?: boolean;
}

export interface WebhookWorker {
  readonly id: string;
  wake(): void;
  /** Resolves once nothing is being claimed or sent (tests wait on it). */
  idle(): Promise<void>;
  /** Graceful: stops claiming, waits for in-flight deliveries to be sent and recorded. */
  stop(): Promise<void>;
  /** Abrupt, like a crashed process: aborts in-flight requests and records nothing; leases expire later. */
  kill(): Promise<void>;
}

export async function startWebhookWorker(deps: WorkerDeps, opts: WorkerOptions = {}): Promise<WebhookWorker> {
  const { engine, logger } = deps;
  const pollMs = opts.pollMs ?? 1000;
  // Four webhooks at the per-webhook default (16) fill it: a few slow receivers never take every slot.
  const concurrency = opts.concurrency ?? 64;
  const perWebhook = opts.perWebhook ?? 4;
  /**
   * A finished delivery frees one slot, and a claim is a write transaction of five or six statements:
   * claiming for each slot as it frees cost more CPU than sending (a 5,000-delivery backlog ran at
   * ~780/s). A webhook with work in flight is refilled once a quarter of its slots are free; one with
   * nothing in flight, or a small cap, at once. The 1 s poll and every new event still wake the worker.
   */
  const refillAt = Math.max(1, Math.ceil(perWebhook / 4));
  const id = `wrk_${randomBytes(6).toString('hex')}`;
  /** Per webhook: deliveries its receiver has now, and those not recorded yet (sending or sent). */
  const inflight = new Map<string, number>();
  const unrecorded = new Map<string, number>();
  const bump = (m: Map<string, number>, w: string, by: number) => {
    const n = (m.get(w) ?? 0) + by;
    if (n <= 0) m.delete(w);
    else m.set(w, n);
    return n;
  };
  const tasks = new Set<Promise<void>>();
  const abort = new AbortController();
  let stopped = false;
  let killed = false;
  let loop: Promise<void> | null = null;
  let again = false;
  /** New outbox rows may exist (a commit, a NOTIFY, a poll tick); a finished delivery only frees a slot. */
  let fanOutDue = true;
  /** Due deliveries may be waiting that no claim has seen: claim on the next pass. */
  let claimDue = true;
  /**
   * A fan-out or claim left due deliveries for lack of a slot: claiming again before a slot frees would
   * find the same webhooks full (one wasted transaction per pass), so the claim waits for a finished delivery.
   */
  let leftForSlot = false;
  /** The last pass failed (logged once until one succeeds). */
  let failing = false;

  const wake = () => {
    if (stopped) return;
    if (loop) {
      again = true;
      return;
    }
    loop = run().finally(() => {
      loop = null;
      if (again && !stopped) wake();
    });
  };

  async function run() {
    try {
      do {
        again = false;
        if (fanOutDue) {
          fanOutDue = false;
          for (;;) {
            if (stopped) break;
            const out = await engine.queue.fanOut({ workerId: id, max: concurrency - tasks.size, room });
            if (out.leftBehind) leftForSlot = true;
            for (const d of out.claimed) launch(d);
            if (!out.full) break;
          }
        }
        await fill();
      } while (again && !stopped);
      if (failing) logger?.info({}, 'webhook worker passes succeed again');
      failing = false;
    } catch (err) {
      fanOutDue = true;
      claimDue = true;
      // Once per run of failures (the database away: every poll fails until it is back).
      if (!stopped && !failing) logger?.warn({ err }, 'webhook worker pass failed; retrying on every poll until one succeeds');
      failing = true;
    }
  }

  /**
   * One claim per pass: it takes every due delivery that fits (phase 2 of the claim fills each
   * webhook's free slots), so claiming again at once would only find capped webhooks. What it
   * left behind is claimed when a slot frees (a finished delivery wakes the worker) or on a signal.
   */
  async function fill() {
    if (stopped || !claimDue) return;
    const free = concurrency - tasks.size;
    if (free <= 0) return;
    claimDue = false;
    const exclude = [...unrecorded.keys()].filter((w) => room(w) <= 0);
    const { claimed, more } = await engine.queue.claim({ max: free, exclude, slots: room, workerId: id });
    if (more) leftForSlot = true;
    for (const d of claimed) launch(d);
  }

  /**
   * Free slots of a webhook in this worker: at most perWebhook at its receiver, and twice that not yet
   * recorded, so a crash resends at most 2 x perWebhook of its deliveries.
   */
  const room = (webhookId: string) => Math.min(perWebhook - (inflight.get(webhookId) ?? 0), 2 * perWebhook - (unrecorded.get(webhookId) ?? 0));
  /** A webhook with nothing at its receiver is refilled at once; one with work there once a quarter of its slots are free. */
  const worthClaiming = (webhookId: string) => {
    const free = room(webhookId);
    return free > 0 && (free >= refillAt || !inflight.has(webhookId));
  };

  /**
   * A delivery holds one of its webhook's slots while the receiver has it, and one of the worker's until
   * its outcome is recorded. Recording waits for the recorder's next batch (a few ms to tens of ms on
   * PostgreSQL); holding the webhook's slot through it capped one receiver at ~250 deliveries/s.
   */
  function launch(d: ClaimedDelivery) {
    if (killed) return; // a dead process sends nothing; the lease runs out and another worker takes it
    bump(inflight, d.webhook_id, 1);
    bump(unrecorded, d.webhook_id, 1);
    let slotHeld = true;
    /** Frees the webhook's slot (once); whether that is worth a claim now. */
    const freeSlot = () => {
      if (!slotHeld) return false;
      slotHeld = false;
      bump(inflight, d.webhook_id, -1);
      return worthClaiming(d.webhook_id);
    };
    const claimSoon = () => {
      if (leftForSlot) {
        leftForSlot = false;
        claimDue = true;
      }
      wake();
    };
    const onSent = () => {
      if (freeSlot()) claimSoon();
    };
    const task: Promise<void> = engine
      .attempt(d, { timeoutMs: opts.timeoutMs, signal: abort.signal, shouldRecord: () => !killed, onSent })
      .then(() => undefined)
      .catch((err) => {
        if (!killed) logger?.error({ err, delivery: d.id }, 'webhook delivery could not be recorded');
      })
      .finally(() => {
        freeSlot(); // if the attempt ended before anything was sent
        bump(unrecorded, d.webhook_id, -1);
        const wasFull = tasks.size >= concurrency;
        tasks.delete(task);
        // When the worker was full, the freed slot may be another webhook's turn.
        if (worthClaiming(d.webhook_id) || wasFull) claimSoon();
      });
    tasks.add(task);
  }

  const signal = () => {
    fanOutDue = true;
    claimDue = true;
    wake();
  };
  /**
   * A local commit of events needs only the fan-out: it leases the new deliveries that fit, and says
   * when it left some behind. Claiming after every commit as well was a second write transaction per
   * event that found nothing new (at 200 events/s the loop then spent more time in BEGIN/COMMIT than idle).
   */
  const unsubscribe = deps.outbox.onCommitted((deliveriesDue) => {
    if (deliveriesDue) return signal();
    fanOutDue = true;
    wake();
  });
  const timer = setInterval(signal, pollMs);
  timer.unref();
  let unlisten: (() => Promise<void>) | undefined;
  if (deps.dialect === 'postgres' && deps.databaseUrl && opts.listen !== false) {
    // This process's own NOTIFY tells its worker nothing new: its commit called onCommitted above already.
    const onNotify = (payload: string) => {
      if (decodeWake(payload).origin !== deps.outbox.origin) signal();
    };
    // The connection comes back by itself after PostgreSQL restarts; what was committed meanwhile is read once then, as at start.
    unlisten = await listenForOutbox(deps.databaseUrl, onNotify, {
      onLost: (err) => logger?.warn({ err }, 'LISTEN connection lost; polling until it is back'),
      onBack: () => {
        logger?.info({}, 'LISTEN connection is back');
        signal();
      },
    });
  }
  wake();

  async function halt() {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    await unlisten?.();
  }

  return {
    id,
    wake: signal,
    async idle() {
      while (loop || tasks.size > 0) {
        await loop;
        await Promise.allSettled([...tasks]);
      }
    },
    async stop() {
      await halt();
      await loop;
      await Promise.allSettled([...tasks]);
    },
    async kill() {
      killed = true;
      await halt();
      abort.abort();
      await Promise.allSettled([loop, ...tasks]);
    },
  };
}

/**
 * Under a stream of commits a NOTIFY went out as soon as the one before was answered (250-300 a second
 * at 6,400 POST /v1/sheets a second; 100 with this gap):
 * each is a statement and a commit on a pooled connection, and a wake-up of every listening backend
 * and process. One at most every NOTIFY_GAP_MS names every account committed meanwhile; another
 * process learns of a commit that much later at most (its poll is the safety net either way).
 */
const NOTIFY_GAP_MS = 10;

/**
 * In a process that writes events but may run no worker (API-only mode, or
 * another machine), tell the workers elsewhere over NOTIFY, and the event
 * streams there which workspaces wrote events (src/events/wake-payload.ts).
 * Coalesced: at most one NOTIFY in flight, plus one more (naming every workspace
 * committed meanwhile) if commits happened meanwhile, NOTIFY_GAP_MS after the one before began.
 */
export function startOutboxNotifier(deps: { db: Db; dialect: Dialect; outbox: Outbox; logger?: Pick<Logger, 'warn'> }): () => void {
  if (deps.dialect !== 'postgres') return () => {};
  let busy = false;
  let pending = false;
  let lastSent = 0;
  let next: NodeJS.Timeout | undefined;
  // The workspaces of the commits not yet told (undefined: one of them did not say; any workspace).
  let workspaces: Set<string> | undefined = new Set();
  const notify = (_deliveriesDue?: boolean, commit?: Committed) => {
    if (workspaces) {
      if (commit?.workspaces) for (const a of commit.workspaces) workspaces.add(a);
      else if (commit) workspaces = undefined;
    }
    if (busy) {
      pending = true;
      return;
    }
    busy = true;
    lastSent = performance.now();
    const payload = encodeWake(deps.outbox.origin, workspaces);
    workspaces = new Set();
    outboxNotifySql(deps.dialect, payload)!
      .execute(deps.db)
      .catch((err) => deps.logger?.warn({ err }, 'NOTIFY for webhook workers failed; they will poll'))
      .finally(() => {
        if (!pending) {
          busy = false;
          return;
        }
        pending = false;
        next = setTimeout(
          () => {
            busy = false;
            notify();
          },
          Math.max(0, lastSent + NOTIFY_GAP_MS - performance.now()),
        );
      });
  };
  const unsubscribe = deps.outbox.onCommitted(notify);
  return () => {
    clearTimeout(next);
    unsubscribe();
  };
}
