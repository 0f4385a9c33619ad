import { z } from 'zod';
import type { WebhooksService } from '../../modules/webhooks/webhooks.service.js';
import { IdParams, recordInWorkspace } from '../../lib/schema-fields.js';
import {
  CreateWebhookBody,
  CreateWebhookResponse,
  DeleteWebhookResponse,
  DeliveryParams,
  DeliveryResponse,
  ListDeliveriesQuery,
  ListDeliveriesResponse,
  ListWebhooksQuery,
  ListWebhooksResponse,
  WebhookResponse,
} from '../../modules/webhooks/webhooks.schemas.js';
import { McpPage, hasMore } from '../paging.js';
import { READ_ONLY, type ToolRegistry } from '../tool.js';

const WebhookId = IdParams.shape.id.describe('Webhook id, e.g. wh_01j...');
const InWorkspace = recordInWorkspace('webhook');
const SENDS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** The services these tools call. */
export interface WebhookToolDeps {
  webhooks: WebhooksService;
}

export function registerWebhookTools(t: ToolRegistry, deps: WebhookToolDeps): void {
  t.define('list_webhooks', {
    title: 'List webhooks',
    description:
      "List a workspace's webhooks (url, events, status enabled/disabled, created_at, disabled_at, workspace_id; never the secret). " +
      'All are returned. workspace_id: the workspace to list (default: your personal one).',
    input: ListWebhooksQuery,
    output: ListWebhooksResponse.extend({ total: z.number().int(), has_more: z.boolean() }),
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (args, auth) => {
      const webhooks = await deps.webhooks.list(auth, args.workspace_id);
      return { success: true as const, webhooks, total: webhooks.length, has_more: false };
    },
  });

  t.define('register_webhook', {
    creates: true,
    title: 'Register a webhook',
    description:
      'Register an HTTPS URL to receive signed POSTs for events (sheet.created, sheet.updated, sheet.deleted, spark.executed, session.saved, ' +
      'session.updated, session.handover, knowledge.saved, export.completed, todos.synced, todo.deleted, or * for all). Needs the Pro plan or higher. The result holds the signing secret ' +
      '(whsec_...), shown only this once: give it to the user. workspace_id: a team workspace whose events it receives (needs the admin role there; default: your personal workspace).',
    input: CreateWebhookBody,
    output: CreateWebhookResponse,
    annotations: SENDS,
    run: async (args, auth) => ({ success: true as const, webhook: await deps.webhooks.create(auth, auth.plan, args, auth.scopes) }),
  });

  t.define('delete_webhook', {
    title: 'Delete a webhook',
    description: 'Delete a webhook and its delivery log for good; no more events are sent to it.',
    input: z.object({ id: WebhookId, workspace_id: InWorkspace }),
    output: DeleteWebhookResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.webhooks.remove(auth, args.id, { workspace_id: args.workspace_id })) }),
  });

  t.define('enable_webhook', {
    title: 'Enable a webhook',
    description: 'Enable a webhook that was disabled (after its retries all failed) so new events flow to it again.',
    input: z.object({ id: WebhookId, workspace_id: InWorkspace }),
    output: WebhookResponse,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, webhook: await deps.webhooks.enable(auth, auth.plan, args.id, { workspace_id: args.workspace_id }) }),
  });

  t.define('list_webhook_deliveries', {
    title: 'List webhook deliveries',
    description:
      "Delivery log of one webhook, newest first: each delivery's status and every attempt (time, HTTP status, duration, error). " +
      'Use it to find out why a receiver is not getting events. Reports total and has_more.',
    input: ListDeliveriesQuery.extend({ id: WebhookId, workspace_id: InWorkspace, ...McpPage }),
    output: ListDeliveriesResponse.extend({ has_more: z.boolean() }),
    annotations: READ_ONLY,
    source: 'querystring',
    run: async ({ id, workspace_id, ...page }, auth) => {
      const r = await deps.webhooks.deliveries(auth, id, page, { workspace_id });
      return { success: true as const, ...r, has_more: hasMore(r.total, page.offset, r.deliveries.length) };
    },
  });

  t.define('redeliver_webhook_delivery', {
    title: 'Redeliver a webhook delivery',
    description: 'Send one past delivery again now, with a fresh retry schedule (the receiver dedupes on X-Service-Delivery).',
    input: DeliveryParams.extend({ workspace_id: InWorkspace }),
    output: DeliveryResponse,
    annotations: SENDS,
    run: async (args, auth) => ({ success: true as const, delivery: await deps.webhooks.redeliver(auth, auth.plan, args.id, args.delivery_id, { workspace_id: args.workspace_id }) }),
  });

  t.define('test_webhook', {
    title: 'Send a test event',
    description: 'Send a signed webhook.test event to the webhook now and return the outcome (not retried).',
    input: z.object({ id: WebhookId, workspace_id: InWorkspace }),
    output: DeliveryResponse,
    annotations: SENDS,
    run: async (args, auth) => ({ success: true as const, delivery: await deps.webhooks.test(auth, auth.plan, args.id, { workspace_id: args.workspace_id }) }),
  });
}
