import { sql } from 'kysely';
import { isoAt as iso } from '../clock.js';
import { transactionAlone } from '../db/group-commit.js';
import type { Db, Executor, Trx } from '../db/types.js';
import { newId } from '../ids.js';
import { TEST_EVENT, type ClaimedDelivery } from './claimed-delivery.js';
import type { AttemptResult } from './sender.js';

/** Most attempt results written in one transaction. */
const RECORD_BATCH = 200;

/** Records attempt results for the delivery queue (see record below). */
export function createAttemptRecorder(deps: {
  db: Db;
  retrySchedule: number[];
  stopPending: (exec: Executor, webhookId: string, reason: string, now: number) => Promise<void>;
  now: () => number;
}) {
  const { db, retrySchedule, stopPending } = deps;

  /** Writes an attempt and moves the delivery on: delivered, the next retry, or failed (which disables the webhook). */
  async function recordIn(trx: Trx, d: ClaimedDelivery, result: AttemptResult, now: number): Promise<{ disabled: boolean }> {
    await trx
      .insertInto('delivery_attempts')
      .values({
        id: newId('run', now),
        delivery_id: d.id,
        attempted_at: iso(now - result.durationMs),
        duration_ms: result.durationMs,
        status_code: result.statusCode,
        error: result.error,
        response_body: result.responseBody,
      })
      .execute();
    // attempt_count counts the attempt rows, so it goes up even when the transition below finds the delivery
    // stopped, redelivered or re-leased meanwhile (then only the count moves). One statement when the transition applies.
    const base = trx
      .updateTable('deliveries')
      .where('id', '=', d.id)
      .where('claimed_by', '=', d.token)
      .set({ attempt_count: sql`attempt_count + 1`, claimed_until: null, updated_at: iso(now) });
    const moved = async (q: typeof base) => {
      const r = await q.executeTakeFirst();
      if (Number(r.numUpdatedRows) > 0) return true;
      await trx.updateTable('deliveries').set({ attempt_count: sql`attempt_count + 1` }).where('id', '=', d.id).execute();
      return false;
    };
    if (result.ok) {
      await moved(base.set({ status: 'delivered', next_attempt_at: null }));
      return { disabled: false };
    }
    const step = d.retry_step;
    const pending = base.where('status', '=', 'pending');
    if (d.event !== TEST_EVENT && step < retrySchedule.length) {
      await moved(pending.set({ retry_step: step + 1, next_attempt_at: iso(now + retrySchedule[step]) }));
      return { disabled: false };
    }
    const failed = await moved(pending.set({ status: 'failed', next_attempt_at: null }));
    if (d.event === TEST_EVENT || !failed) return { disabled: false };
    const reason = `delivery ${d.id} failed ${step + 1} times (the first try and ${step} retries); last error: ${result.error}`;
    const w = await trx
      .updateTable('webhooks')
      .set({ status: 'disabled', disabled_at: iso(now), disabled_reason: reason.slice(0, 1000) })
      .where('id', '=', d.webhook_id)
      .where('status', '=', 'enabled')
      .executeTakeFirst();
    await stopPending(trx, d.webhook_id, 'the webhook was disabled after repeated failures', now);
    return { disabled: Number(w.numUpdatedRows) > 0 };
  }

  /**
   * Results that finish while a write is running are recorded together in the
   * next transaction (one commit for many deliveries instead of one each), in
   * the order they finished, exactly as if recorded one by one. If that
   * transaction fails, each is retried alone so one bad row fails only itself.
   */
  type Pending = { d: ClaimedDelivery; result: AttemptResult; now: number; done: (v: { disabled: boolean }) => void; fail: (e: unknown) => void };
  const queued: Pending[] = [];
  let writing = false;

  async function flush() {
    writing = true;
    try {
      while (queued.length > 0) {
        const batch = queued.splice(0, RECORD_BATCH);
        try {
          const out = await transactionAlone(db, async (trx) => {
            const res: { disabled: boolean }[] = [];
            for (const p of batch) res.push(await recordIn(trx, p.d, p.result, p.now));
            return res;
          });
          batch.forEach((p, i) => p.done(out[i]));
        } catch {
          for (const p of batch) {
            await transactionAlone(db, (trx) => recordIn(trx, p.d, p.result, p.now)).then(p.done, p.fail);
          }
        }
      }
    } finally {
      writing = false;
    }
  }

  function record(d: ClaimedDelivery, result: AttemptResult): Promise<{ disabled: boolean }> {
    return new Promise((done, fail) => {
      queued.push({ d, result, now: deps.now(), done, fail });
      if (!writing) void flush();
    });
  }

  return record;
}
