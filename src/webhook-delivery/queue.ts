import { sql, type ExpressionBuilder } from 'kysely';
import { isoAt as iso, type Clock } from '../clock.js';
import { skipLockedSuffix } from '../db/dialect.js';
import { transactionAlone } from '../db/sqlite/group-commit.js';
import type { Database, Db, DeliveriesTable, Dialect, Executor } from '../db/types.js';
import { outboxEnvelope } from '../events/envelope.js';
import { newId } from '../ids.js';
import { paidPlan } from '../lib/plans.js';
import type { ClaimedDelivery } from './claimed-delivery.js';
import { ownerPlan } from './owner-plan.js';
import { createAttemptRecorder } from './recorder.js';

/**
 * The delivery queue in the database. Everything here is safe with several
 * worker processes: fan-out is idempotent (unique event_id, webhook_id),
 * claims take a lease (claimed_until) under FOR UPDATE SKIP LOCKED on
 * PostgreSQL, and results are written only by the lease holder.
 */

const FAN_OUT_BATCH = 200;
/** Bounds the per-webhook pass of one claim (the rest wait for the next claim). */
const MAX_WEBHOOKS_PER_CLAIM = 1000;

export interface FanOutResult {
  events: number;
  /** The batch was full: more outbox rows may be waiting. */
  full: boolean;
  /** Deliveries inserted already leased to the caller. */
  claimed: ClaimedDelivery[];
  /** Some new deliveries were not leased (no free slot): a claim should follow. */
  leftBehind: boolean;
}

export function subscribes(events: string[], event: string): boolean {
  return events.includes('*') || events.includes(event);
}

export function createDeliveryQueue(deps: { db: Db; dialect: Dialect; clock: Clock; retrySchedule: number[]; leaseMs: number }) {
  const { db, dialect, clock, retrySchedule, leaseMs } = deps;

  /**
   * Turns committed outbox rows into one delivery per enabled, subscribed webhook of a paying owner.
   * With `claimFor`, the new deliveries that fit their webhook's free slots are inserted already
   * leased to that worker and returned, so a fresh event costs no separate claim; the rest wait
   * for a claim (`leftBehind`). Returns the outbox rows handled.
   */
  async function fanOut(claimFor?: { workerId: string; max: number; room: (webhookId: string) => number }): Promise<FanOutResult> {
    // Most commits leave nothing to fan out (PostgreSQL stores an event no webhook wants as dispatched,
    // migration 034): one indexed read tells, where the locking transaction took three round trips.
    const any = await db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).limit(1).executeTakeFirst();
    if (!any) return { events: 0, full: false, claimed: [], leftBehind: false };
    return transactionAlone(db, async (trx) => {
      const events = await trx.selectFrom('outbox').selectAll().where('dispatched_at', 'is', null).orderBy('id').limit(FAN_OUT_BATCH).modifyEnd(skipLockedSuffix(dialect)).execute();
      if (events.length === 0) return { events: 0, full: false, claimed: [], leftBehind: false };
      const workspaces = [...new Set(events.map((e) => e.workspace_id))];
      const hooks = await trx
        .selectFrom('webhooks')
        .select(['webhooks.id', 'webhooks.workspace_id', 'webhooks.events', 'webhooks.url', 'webhooks.secret_enc', ownerPlan('webhooks.workspace_id').as('plan')])
        .where('webhooks.workspace_id', 'in', workspaces)
        .where('webhooks.status', '=', 'enabled')
        .execute();
      const now = clock.now().getTime();
      const token = claimFor ? `${claimFor.workerId}:${newId('run', now)}` : '';
      const taken = new Map<string, number>();
      const subscribed = new Map(hooks.map((h) => [h.id, JSON.parse(h.events) as string[]]));
      const rows: DeliveriesTable[] = [];
      const mine = new Map<string, ClaimedDelivery>();
      let leftBehind = false;
      for (const ev of events) {
        for (const h of hooks) {
          if (h.workspace_id !== ev.workspace_id || !paidPlan(h.plan) || !subscribes(subscribed.get(h.id)!, ev.event)) continue;
          const row = newDelivery(h.id, ev.workspace_id, ev.id, ev.event, outboxEnvelope(ev, { withId: false }), now);
          const n = taken.get(h.id) ?? 0;
          if (claimFor && mine.size < claimFor.max && claimFor.room(h.id) - n > 0) {
            taken.set(h.id, n + 1);
            Object.assign(row, { claimed_by: token, claimed_until: iso(now + leaseMs) });
            mine.set(row.id, { ...row, url: h.url, secret_enc: h.secret_enc, webhook_status: 'enabled', plan: h.plan, token });
          } else leftBehind = true;
          rows.push(row);
        }
      }
      const inserted = new Set<string>();
      for (let i = 0; i < rows.length; i += 100) {
        const ids = await trx
          .insertInto('deliveries')
          .values(rows.slice(i, i + 100))
          .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
          .returning('id')
          .execute();
        for (const r of ids) inserted.add(r.id);
      }
      await trx
        .updateTable('outbox')
        .set({ dispatched_at: iso(now) })
        .where(
          'id',
          'in',
          events.map((e) => e.id),
        )
        .execute();
      return { events: events.length, full: events.length === FAN_OUT_BATCH, claimed: [...mine.values()].filter((d) => inserted.has(d.id)), leftBehind };
    });
  }

  function newDelivery(webhookId: string, workspaceId: string, eventId: string, event: string, body: string, at: number): DeliveriesTable {
    return {
      id: newId('dlv', at),
      webhook_id: webhookId,
      workspace_id: workspaceId,
      event_id: eventId,
      event,
      body,
      status: 'pending',
      attempt_count: 0,
      retry_step: 0,
      next_attempt_at: iso(at),
      claimed_until: null,
      claimed_by: null,
      stopped_reason: null,
      created_at: iso(at),
      updated_at: iso(at),
    };
  }

  const withWebhook = (ids: string[], token: string) =>
    db
      .selectFrom('deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .selectAll('d')
      .select(['w.url', 'w.secret_enc', 'w.status as webhook_status', ownerPlan('d.workspace_id').as('plan')])
      .where('d.id', 'in', ids)
      .where('d.claimed_by', '=', token)
      .execute();

  const dueWhere = (now: number) => (eb: ExpressionBuilder<Database, 'deliveries'>) =>
    eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', iso(now)), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', iso(now))])]);

  /** The webhooks that have pending deliveries: a skip-scan over deliveries_webhook_due, one index seek per webhook. */
  const webhooksWithPending = (exec: Executor) =>
    sql<{ id: string }>`with recursive w(id) as (
        select min(webhook_id) from deliveries where status = 'pending'
        union all
        select (select min(d.webhook_id) from deliveries d where d.status = 'pending' and d.webhook_id > w.id) from w where w.id is not null
      ) select id from w where id is not null limit ${MAX_WEBHOOKS_PER_CLAIM}`.execute(exec);

  /**
   * Leases up to `max` due deliveries, at most `slots(webhookId)` per webhook,
   * never from webhooks in `exclude` (those already at their concurrency cap).
   * First the oldest due rows overall (a bounded read of deliveries_due); only
   * if that read was full and slots are left, each other webhook with pending
   * work is asked for its own oldest due rows, so a capped webhook's backlog is
   * never rescanned and never holds up the others.
   */
  async function claim(opts: { max: number; exclude: string[]; slots: (webhookId: string) => number; workerId: string }): Promise<{ claimed: ClaimedDelivery[]; more: boolean }> {
    const now = clock.now().getTime();
    const token = `${opts.workerId}:${newId('run', now)}`;
    const capped = new Set(opts.exclude);
    /** Due rows were seen but not taken (cap, max or a full read): claim again when a slot frees. */
    let more = false;
    const ids = await transactionAlone(db, async (trx) => {
      const taken = new Map<string, number>();
      const picked = new Set<string>();
      const room = (w: string) => (capped.has(w) ? 0 : opts.slots(w) - (taken.get(w) ?? 0));
      const take = (rows: { id: string; webhook_id: string }[]) => {
        for (const c of rows) {
          if (picked.has(c.id)) continue;
          if (picked.size >= opts.max || room(c.webhook_id) <= 0) {
            more = true;
            continue;
          }
          taken.set(c.webhook_id, (taken.get(c.webhook_id) ?? 0) + 1);
          picked.add(c.id);
        }
      };
      const limit = opts.max + 8;
      const candidates = await trx
        .selectFrom('deliveries')
        .select(['id', 'webhook_id'])
        .where(dueWhere(now))
        .orderBy('next_attempt_at') // no tie-break on id: it would sort every row due at the same instant
        .limit(limit)
        .modifyEnd(skipLockedSuffix(dialect))
        .execute();
      take(candidates);
      if (candidates.length === limit) more = true;
      if (picked.size < opts.max && candidates.length === limit) {
        for (const { id: webhookId } of (await webhooksWithPending(trx)).rows) {
          if (picked.size >= opts.max) break;
          const n = Math.min(room(webhookId), opts.max - picked.size);
          if (n <= 0) continue;
          const rows = await trx
            .selectFrom('deliveries')
            .select(['id', 'webhook_id'])
            .where('webhook_id', '=', webhookId)
            .where(dueWhere(now))
            .orderBy('next_attempt_at')
            .limit(n + (taken.get(webhookId) ?? 0))
            .modifyEnd(skipLockedSuffix(dialect))
            .execute();
          take(rows);
        }
      }
      if (picked.size === 0) return [];
      const list = [...picked];
      await trx
        .updateTable('deliveries')
        .set({ claimed_until: iso(now + leaseMs), claimed_by: token })
        .where('id', 'in', list)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', iso(now))]))
        .execute();
      return list;
    });
    if (ids.length === 0) return { claimed: [], more };
    return { claimed: (await withWebhook(ids, token)).map((r) => ({ ...r, token }) as ClaimedDelivery), more };
  }

  const record = createAttemptRecorder({ db, retrySchedule, stopPending, now: () => clock.now().getTime() });

  async function stopPending(exec: Executor, webhookId: string, reason: string, now: number) {
    await exec
      .updateTable('deliveries')
      .set({ status: 'stopped', stopped_reason: reason, claimed_until: null, next_attempt_at: null, updated_at: iso(now) })
      .where('webhook_id', '=', webhookId)
      .where('status', '=', 'pending')
      .execute();
  }

  /** A claimed delivery that must not be sent (webhook disabled or owner no longer paying) stops with its reason. */
  async function stop(d: ClaimedDelivery, reason: string) {
    await db
      .updateTable('deliveries')
      .set({ status: 'stopped', stopped_reason: reason, claimed_until: null, next_attempt_at: null, updated_at: iso(clock.now().getTime()) })
      .where('id', '=', d.id)
      .where('claimed_by', '=', d.token)
      .execute();
  }

  /** Inserts a delivery already leased to the caller (the test endpoint sends it inline). */
  async function insertClaimed(webhookId: string, workspaceId: string, event: string, body: string, workerId: string): Promise<ClaimedDelivery> {
    const now = clock.now().getTime();
    const row = newDelivery(webhookId, workspaceId, newId('evt', now), event, body, now);
    const token = `${workerId}:${newId('run', now)}`;
    await db
      .insertInto('deliveries')
      .values({ ...row, claimed_by: token, claimed_until: iso(now + leaseMs) })
      .execute();
    const [claimed] = await withWebhook([row.id], token);
    return { ...claimed, token } as ClaimedDelivery;
  }

  return { fanOut, claim, record, stop, insertClaimed, stopPending: (webhookId: string, reason: string) => stopPending(db, webhookId, reason, clock.now().getTime()) };
}
export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
