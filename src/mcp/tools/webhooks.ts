import { z } from 'zod';
import type { WebhooksService } from '../../modules/webhooks/webhooks.service.js';
import { IdParams } from '../../lib/schema-fields.js';
import {
  CreateWebhookBody,
  CreateWebhookResponse,
  DeleteWebhookResponse,
  DeliveryParams,
  DeliveryResponse,
  ListDeliveriesQuery,
  ListDeliveriesResponse,
  ListWebhooksResponse,
  WebhookResponse,
} from '../../modules/webhooks/webhooks.schemas.js';
import { McpPage, hasMore } from '../paging.js';
import { READ_ONLY, type ToolRegistry } from '../tool.js';

const WebhookId = IdParams.shape.id.describe('Webhook id, e.g. wh_01j...');
const SENDS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** The services these tools call. */
export interface WebhookToolDeps {
  webhooks: WebhooksService;
}

export function registerWebhookTools(t: ToolRegistry, deps: WebhookToolDeps): void {
  t.define('list_webhooks', {
    title: 'List webhooks',
    description: 'List the registered webhooks (url, events, status enabled/disabled, created_at, disabled_at; never the secret). All are returned.',
    input: z.object({}),
    output: ListWebhooksResponse.extend({ total: z.number().int(), has_more: z.boolean() }),
    annotations: READ_ONLY,
    run: async (_args, auth) => {
      const webhooks = await deps.webhooks.list(auth.userId);
      return { success: true as const, webhooks, total: webhooks.length, has_more: false };
    },
  });

  t.define('register_webhook', {
    creates: true,
    title: 'Register a webhook',
    description:
      'Register an HTTPS URL to receive signed POSTs for events (sheet.created, sheet.updated, sheet.deleted, spark.executed, session.saved, ' +
      'session.updated, session.handover, knowledge.saved, export.completed, todos.synced, todo.deleted, or * for all). Needs the Pro plan or higher. The result holds the signing secret ' +
      '(whsec_...), shown only this once: give it to the user.',
    input: CreateWebhookBody,
    output: CreateWebhookResponse,
    annotations: SENDS,
    run: async (args, auth) => ({ success: true as const, webhook: await deps.webhooks.create(auth.userId, auth.plan, args, auth.scopes) }),
  });

  t.define('delete_webhook', {
    title: 'Delete a webhook',
    description: 'Delete a webhook and its delivery log for good; no more events are sent to it.',
    input: z.object({ id: WebhookId }),
    output: DeleteWebhookResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.webhooks.remove(auth.userId, args.id)) }),
  });

  t.define('enable_webhook', {
    title: 'Enable a webhook',
    description: 'Enable a webhook that was disabled (after its retries all failed) so new events flow to it again.',
    input: z.object({ id: WebhookId }),
    output: WebhookResponse,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, webhook: await deps.webhooks.enable(auth.userId, auth.plan, args.id) }),
  });

  t.define('list_webhook_deliveries', {
    title: 'List webhook deliveries',
    description:
      'Delivery log of one webhook, newest first: each delivery\'s status and every attempt (time, HTTP status, duration, error). ' +
      'Use it to find out why a receiver is not getting events. Reports total and has_more.',
    input: ListDeliveriesQuery.extend({ id: WebhookId, ...McpPage }),
    output: ListDeliveriesResponse.extend({ has_more: z.boolean() }),
    annotations: READ_ONLY,
    source: 'querystring',
    run: async ({ id, ...page }, auth) => {
      const r = await deps.webhooks.deliveries(auth.userId, id, page);
      return { success: true as const, ...r, has_more: hasMore(r.total, page.offset, r.deliveries.length) };
    },
  });

  t.define('redeliver_webhook_delivery', {
    title: 'Redeliver a webhook delivery',
    description: 'Send one past delivery again now, with a fresh retry schedule (the receiver dedupes on X-Service-Delivery).',
    input: DeliveryParams,
    output: DeliveryResponse,
    annotations: SENDS,
    run: async (args, auth) => ({ success: true as const, delivery: await deps.webhooks.redeliver(auth.userId, auth.plan, args.id, args.delivery_id) }),
  });

  t.define('test_webhook', {
    title: 'Send a test event',
    description: 'Send a signed webhook.test event to the webhook now and return the outcome (not retried).',
    input: z.object({ id: WebhookId }),
    output: DeliveryResponse,
    annotations: SENDS,
    run: async (args, auth) => ({ success: true as const, delivery: await deps.webhooks.test(auth.userId, auth.plan, args.id) }),
  });
}
