import type { Clock } from '../../clock.js';
import type { DeliveriesTable, WebhooksTable } from '../../db/types.js';
import { AppError, notFound } from '../../errors.js';
import { envelope } from '../../events/envelope.js';
import type { TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import type { DeliveryEngine } from '../../webhook-delivery/delivery.js';
import { TEST_EVENT } from '../../webhook-delivery/claimed-delivery.js';
import { newWebhookSecret } from '../../webhook-delivery/secrets.js';
import { paidPlan, type Plan } from '../../lib/plans.js';
import { requireReadableEvents } from '../../events/event-scopes.js';
import type { Granted } from '../../auth/scopes.js';
import { type Caller, type WorkspaceAccess, type InWorkspace } from '../workspaces/workspaces.access.js';
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
    workspace_id: row.workspace_id,
    created_by: row.user_id,
  };
}

function requirePaid(plan: Plan) {
  if (!paidPlan(plan)) {
    throw new AppError('plan_required', 'Webhooks need the Pro plan or higher; this account is on the free plan. Upgrade to Pro to use webhooks.');
  }
}

export function createWebhooksService(deps: {
  repo: WebhooksRepo;
  access: Pick<WorkspaceAccess, 'workspaceFor' | 'ownedRow'>;
  tx: TxRunner;
  clock: Clock;
  engine: DeliveryEngine;
  /** Wakes the delivery workers (this process's and, over NOTIFY, the others). */
  wake: () => void;
}) {
  const { repo, access, tx, clock, engine, wake } = deps;

  /**
   * A webhook of a team workspace is read by its members and changed by its admins. `inWorkspace`: the
   * workspace the caller expects it in (MCP tools take it); one elsewhere is a 403.
   */
  async function owned(caller: Caller, id: string, action: 'records.read' | 'webhooks.manage', inWorkspace?: string) {
    return access.ownedRow(await repo.findById(id), caller, 'webhook', id, action, inWorkspace);
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
    /** The webhooks of one workspace (default: personal). */
    async list(caller: Caller, workspaceId?: string) {
      return (await repo.listInWorkspace(await access.workspaceFor(caller, workspaceId, 'records.read'))).map(toWebhookView);
    },

    /** `scopes`: the calling credential's; it may only subscribe to events it could read itself. */
    async create(caller: Caller, plan: Plan, input: CreateWebhookInput, scopes?: Granted) {
      // In the workspace, so it receives exactly that workspace's events.
      const workspaceId = await access.workspaceFor(caller, input.workspace_id, 'webhooks.manage');
      requirePaid(plan);
      requireReadableEvents(scopes, input.events);
      if ((await repo.listInWorkspace(workspaceId)).length >= MAX_WEBHOOKS_PER_ACCOUNT) {
        throw new AppError('invalid_request', `a workspace can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one first`);
      }
      const now = clock.now();
      const secret = newWebhookSecret();
      const events = [...new Set(input.events)];
      const row: WebhooksTable = {
        id: newId('wh', now.getTime()),
        workspace_id: workspaceId,
        url: input.url,
        events: JSON.stringify(events.includes('*') ? ['*'] : events),
        name: input.name || null,
        secret_enc: engine.secrets.encrypt(secret),
        status: 'enabled',
        created_at: now.toISOString(),
        disabled_at: null,
        disabled_reason: null,
        user_id: caller.userId,
      };
      await repo.insert(row);
      return { ...toWebhookView(row), secret };
    },

    async remove(caller: Caller, id: string, opts: InWorkspace = {}) {
      await owned(caller, id, 'webhooks.manage', opts.workspace_id);
      return tx(async (trx) => {
        await repo.remove(id, trx);
        return { id, deleted: true as const };
      });
    },

    /** Stops a webhook's new deliveries with a reason shown to its owner (an imported webhook that was disabled where it came from). */
    async disable(caller: Caller, id: string, reason: string) {
      const row = await owned(caller, id, 'webhooks.manage');
      const patch = { status: 'disabled' as const, disabled_at: clock.now().toISOString(), disabled_reason: reason };
      await repo.update(id, patch);
      return toWebhookView({ ...row, ...patch });
    },

    /** Re-enables a disabled webhook: new events flow again; deliveries stopped by the disable stay stopped (redeliver them one by one). */
    async enable(caller: Caller, plan: Plan, id: string, opts: InWorkspace = {}) {
      const row = await owned(caller, id, 'webhooks.manage', opts.workspace_id);
      requirePaid(plan);
      const patch = { status: 'enabled' as const, disabled_at: null, disabled_reason: null };
      await repo.update(id, patch);
      return toWebhookView({ ...row, ...patch });
    },

    async deliveries(caller: Caller, id: string, query: { limit?: number; offset?: number }, opts: InWorkspace = {}) {
      await owned(caller, id, 'records.read', opts.workspace_id);
      const { rows, total } = await repo.listDeliveries(id, Math.min(query.limit ?? DELIVERIES_DEFAULT, DELIVERIES_MAX), query.offset ?? 0);
      return { deliveries: await deliveryViews(rows), total };
    },

    /** Queues one delivery again at once, with a fresh retry schedule. */
    async redeliver(caller: Caller, plan: Plan, id: string, deliveryId: string, opts: InWorkspace = {}) {
      const hook = await owned(caller, id, 'webhooks.manage', opts.workspace_id);
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
    async test(caller: Caller, plan: Plan, id: string, opts: InWorkspace = {}) {
      const hook = await owned(caller, id, 'webhooks.manage', opts.workspace_id);
      requirePaid(plan);
      const now = clock.now().toISOString();
      const body = envelope({ event: TEST_EVENT, timestamp: now, data: { webhook_id: id, message: 'Test delivery from Sheet Workspace' } });
      const d = await engine.queue.insertClaimed(hook.id, hook.workspace_id, TEST_EVENT, body, 'test');
      await engine.attempt(d);
      const row = await repo.findDelivery(d.id);
      const [view] = await deliveryViews([row!]);
      return view;
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
