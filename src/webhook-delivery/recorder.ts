import { sql } from 'kysely';
import { isoAt as iso } from '../clock.js';
import { transactionAlone } from '../db/sqlite/group-commit.js';
import type { Db, Executor, Trx } from '../db/types.js';
import { newId } from '../ids.js';
import { TEST_EVENT, type ClaimedDelivery } from './claimed-delivery.js';
import type { AttemptResult } from './sender.js';

/** Most attempt results written in one transaction. */
const RECORD_BATCH = 200;

/** Records attempt results for the delivery queue (see record below). */
export function createAttemptRecorder(deps: { db: Db; retrySchedule: number[]; stopPending: (exec: Executor, webhookId: string, reason: string, now: number) => Promise<void>; now: () => number }) {
  const { db, retrySchedule, stopPending } = deps;

  const attemptRow = (d: ClaimedDelivery, result: AttemptResult, now: number) => ({
    id: newId('run', now),
    delivery_id: d.id,
    attempted_at: iso(now - result.durationMs),
    duration_ms: result.durationMs,
    status_code: result.statusCode,
    error: result.error,
    response_body: result.responseBody,
  });

  /** Writes an attempt and moves the delivery on: delivered, the next retry, or failed (which disables the webhook). */
  async function recordIn(trx: Trx, d: ClaimedDelivery, result: AttemptResult, now: number): Promise<{ disabled: boolean }> {
    await trx
      .insertInto('delivery_attempts')
      .values(attemptRow(d, result, now))
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
      await trx
        .updateTable('deliveries')
        .set({ attempt_count: sql`attempt_count + 1` })
        .where('id', '=', d.id)
        .execute();
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
   * What recordIn does for successes of distinct deliveries, in three statements whatever their number (one
   * INSERT of the attempts, one UPDATE moving each still-claimed delivery to delivered, and, only if a claim was
   * lost meanwhile, one UPDATE counting those attempts). One by one, each success cost two statements: on
   * PostgreSQL two round trips, most of the worker's time at 1,000 deliveries a second.
   */
  async function recordDelivered(trx: Trx, group: Pending[]) {
    await trx
      .insertInto('delivery_attempts')
      .values(group.map((p) => attemptRow(p.d, p.result, p.now)))
      .execute();
    const updatedAt = sql.join(
      group.map((p) => sql`when ${p.d.id} then ${iso(p.now)}`),
      sql` `,
    );
    const moved = await trx
      .updateTable('deliveries')
      .set({ attempt_count: sql`attempt_count + 1`, claimed_until: null, updated_at: sql`case id ${updatedAt} end`, status: 'delivered', next_attempt_at: null })
      .where((eb) => eb.or(group.map((p) => eb.and([eb('id', '=', p.d.id), eb('claimed_by', '=', p.d.token)]))))
      .returning('id')
      .execute();
    if (moved.length === group.length) return;
    const kept = new Set(moved.map((r) => r.id));
    const lost = group.filter((p) => !kept.has(p.d.id)).map((p) => p.d.id);
    await trx
      .updateTable('deliveries')
      .set({ attempt_count: sql`attempt_count + 1` })
      .where('id', 'in', lost)
      .execute();
  }

  /**
   * A batch in order: each run of successes of distinct deliveries together (recordDelivered), anything else
   * alone. The runs hold only successes, which touch nothing but their own rows, so the outcome is the one of
   * recording each in turn.
   */
  async function recordBatch(trx: Trx, batch: Pending[]): Promise<{ disabled: boolean }[]> {
    const out: { disabled: boolean }[] = [];
    let run: Pending[] = [];
    const ids = new Set<string>();
    const flushRun = async () => {
      if (run.length === 1) await recordIn(trx, run[0].d, run[0].result, run[0].now);
      else if (run.length > 1) await recordDelivered(trx, run);
      for (let i = 0; i < run.length; i++) out.push({ disabled: false });
      run = [];
      ids.clear();
    };
    for (const p of batch) {
      if (!p.result.ok || ids.has(p.d.id)) await flushRun();
      if (p.result.ok) {
        run.push(p);
        ids.add(p.d.id);
        continue;
      }
      out.push(await recordIn(trx, p.d, p.result, p.now));
    }
    await flushRun();
    return out;
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
          const out = await transactionAlone(db, (trx) => recordBatch(trx, batch));
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
