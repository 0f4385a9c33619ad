import type { Clock } from '../../clock.js';
import type { DeliveriesTable, Trx, WebhooksTable } from '../../db/types.js';
import { ownedRow } from '../../db/owned.js';
import { AppError, notFound } from '../../errors.js';
import { envelope } from '../../events/envelope.js';
import type { TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import type { DeliveryEngine } from '../../webhook-delivery/delivery.js';
import { TEST_EVENT } from '../../webhook-delivery/claimed-delivery.js';
import { newWebhookSecret } from '../../webhook-delivery/secrets.js';
import type { Plan } from '../accounts/accounts.repo.js';
import { paidPlan } from '../accounts/plans.js';
import { requireReadableEvents } from '../../events/event-scopes.js';
import type { Granted } from '../../auth/scopes.js';
import type { WebhooksRepo } from './webhooks.repo.js';
import type { CreateWebhookInput, DeliveryView, WebhookView } from './webhooks.schemas.js';

export const DELIVERIES_DEFAULT = 20;
export const DELIVERIES_MAX = 100;
export const MAX_WEBHOOKS_PER_ACCOUNT = 25;

export function toWebhookView(row: WebhooksTable): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    name: row.name,
    status: row.status,
    created_at: row.created_at,
    disabled_at: row.disabled_at,
    disabled_reason: row.disabled_reason,
  };
}

function requirePaid(plan: Plan) {
  if (!paidPlan(plan)) {
    throw new AppError('plan_required', 'Webhooks need the Pro plan or higher; this account is on the free plan. Upgrade to Pro to use webhooks.');
  }
}

export function createWebhooksService(deps: {
  repo: WebhooksRepo;
  tx: TxRunner;
  clock: Clock;
  engine: DeliveryEngine;
  /** Wakes the delivery workers (this process's and, over NOTIFY, the others). */
  wake: () => void;
}) {
  const { repo, tx, clock, engine, wake } = deps;

  async function owned(userId: string, id: string, exec?: Trx) {
    return ownedRow(await repo.findById(id, exec), userId, 'webhook', id);
  }

  async function deliveryViews(rows: DeliveriesTable[]): Promise<DeliveryView[]> {
    const attempts = await repo.attemptsFor(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      webhook_id: r.webhook_id,
      event_id: r.event_id,
      event: r.event,
      status: r.status,
      attempt_count: Number(r.attempt_count),
      next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
      stopped_reason: r.stopped_reason,
      created_at: r.created_at,
      attempts: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          attempted_at: a.attempted_at,
          status_code: a.status_code === null ? null : Number(a.status_code),
          duration_ms: Number(a.duration_ms),
          error: a.error,
          response_body: a.response_body,
        })),
    }));
  }

  return {
    async list(userId: string) {
      return (await repo.listByUser(userId)).map(toWebhookView);
    },

    /** `scopes`: the calling credential's; it may only subscribe to events it could read itself. */
    async create(userId: string, plan: Plan, input: CreateWebhookInput, scopes?: Granted) {
      requirePaid(plan);
      requireReadableEvents(scopes, input.events);
      if ((await repo.listByUser(userId)).length >= MAX_WEBHOOKS_PER_ACCOUNT) {
        throw new AppError('invalid_request', `an account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one first`);
      }
      const now = clock.now();
      const secret = newWebhookSecret();
      const events = [...new Set(input.events)];
      const row: WebhooksTable = {
        id: newId('wh', now.getTime()),
        user_id: userId,
        url: input.url,
        events: JSON.stringify(events.includes('*') ? ['*'] : events),
        name: input.name || null,
        secret_enc: engine.secrets.encrypt(secret),
        status: 'enabled',
        created_at: now.toISOString(),
        disabled_at: null,
        disabled_reason: null,
      };
      await repo.insert(row);
      return { ...toWebhookView(row), secret };
    },

    remove(userId: string, id: string) {
      return tx(async (trx) => {
        await owned(userId, id, trx);
        await repo.remove(id, trx);
        return { id, deleted: true as const };
      });
    },

    /** Stops a webhook's new deliveries with a reason shown to its owner (an imported webhook that was disabled where it came from). */
    async disable(userId: string, id: string, reason: string) {
      const row = await owned(userId, id);
      const patch = { status: 'disabled' as const, disabled_at: clock.now().toISOString(), disabled_reason: reason };
      await repo.update(id, patch);
      return toWebhookView({ ...row, ...patch });
    },

    /** Re-enables a disabled webhook: new events flow again; deliveries stopped by the disable stay stopped (redeliver them one by one). */
    async enable(userId: string, plan: Plan, id: string) {
      const row = await owned(userId, id);
      requirePaid(plan);
      const patch = { status: 'enabled' as const, disabled_at: null, disabled_reason: null };
      await repo.update(id, patch);
      return toWebhookView({ ...row, ...patch });
    },

    async deliveries(userId: string, id: string, query: { limit?: number; offset?: number }) {
      await owned(userId, id);
      const { rows, total } = await repo.listDeliveries(id, Math.min(query.limit ?? DELIVERIES_DEFAULT, DELIVERIES_MAX), query.offset ?? 0);
      return { deliveries: await deliveryViews(rows), total };
    },

    /** Queues one delivery again at once, with a fresh retry schedule. */
    async redeliver(userId: string, plan: Plan, id: string, deliveryId: string) {
      const hook = await owned(userId, id);
      const d = await repo.findDelivery(deliveryId);
      if (!d || d.webhook_id !== id) throw notFound('delivery', deliveryId);
      requirePaid(plan);
      if (hook.status !== 'enabled') throw new AppError('conflict', `webhook ${id} is disabled; enable it before redelivering`);
      const now = clock.now();
      if (d.status === 'pending' && d.claimed_until && d.claimed_until > now.toISOString()) {
        throw new AppError('conflict', `delivery ${deliveryId} is being sent right now`);
      }
      const patch = {
        status: 'pending' as const,
        retry_step: 0,
        next_attempt_at: now.toISOString(),
        claimed_until: null,
        claimed_by: null,
        stopped_reason: null,
        updated_at: now.toISOString(),
      };
      await repo.updateDelivery(deliveryId, patch);
      wake();
      const [view] = await deliveryViews([{ ...d, ...patch }]);
      return view;
    },

    /** Sends a signed webhook.test event now (disabled webhooks too, to check a receiver before enabling) and returns the outcome. Not retried. */
    async test(userId: string, plan: Plan, id: string) {
      const hook = await owned(userId, id);
      requirePaid(plan);
      const now = clock.now().toISOString();
      const body = envelope({ event: TEST_EVENT, timestamp: now, data: { webhook_id: id, message: 'Test delivery from Sheet Workspace' } });
      const d = await engine.queue.insertClaimed(hook.id, userId, TEST_EVENT, body, 'test');
      await engine.attempt(d);
      const row = await repo.findDelivery(d.id);
      const [view] = await deliveryViews([row!]);
      return view;
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
