import { z } from 'zod';
import { Timestamp, WorkspaceIdInput, WorkspaceIdView, queryInt } from '../../lib/schema-fields.js';
import { EVENT_NAMES } from '../../events/catalog.js';

const EventOrStar = z.string().refine((e) => e === '*' || (EVENT_NAMES as string[]).includes(e), {
  error: (issue) => `unknown event ${JSON.stringify(issue.input)}; allowed: *, ${EVENT_NAMES.join(', ')}`,
});

const HttpsUrl = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'url must be an absolute https:// URL' });
      return;
    }
    if (url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'url must use https' });
    if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'url must not carry credentials (user:password@)' });
  });

export const CreateWebhookBody = z.object({
  url: HttpsUrl.describe('HTTPS delivery target. Must not carry credentials.'),
  events: z.array(EventOrStar).min(1, 'events must name at least one event, or *').max(20).describe('Event names, or `*` for all events.'),
  name: z.string().trim().max(200).optional(),
  workspace_id: WorkspaceIdInput.describe("The workspace whose events the webhook receives (default: your personal one); a team workspace's webhooks need the admin role there"),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    name: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']),
    created_at: Timestamp,
    disabled_at: Timestamp.nullable(),
    disabled_reason: z.string().nullable().describe('Why the webhook was disabled (the last delivery error).'),
    workspace_id: WorkspaceIdView.describe('The workspace (wsp_...) whose events this webhook receives'),
    created_by: z
      .string()
      .nullable()
      .describe(
        'The account (usr_...) that made it (for a team webhook made before makers were recorded, the creator of its workspace). A team webhook is disabled when its maker leaves the workspace, is removed or loses the admin role.',
      ),
  })
  .meta({ id: 'Webhook' });
export type WebhookView = z.infer<typeof Webhook>;

export const CreatedWebhook = Webhook.extend({
  secret: z.string().describe('whsec_...: the HMAC key for X-Service-Signature. Returned only here.'),
}).meta({ id: 'CreatedWebhook' });

export const Attempt = z.object({
  attempted_at: Timestamp,
  status_code: z.number().int().nullable().describe('HTTP status of the response; null when none arrived.'),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response_body: z.string().nullable().describe('The first 1 KiB of the response body.'),
});

export const Delivery = z
  .object({
    id: z.string().describe('Also sent as X-Service-Delivery; the same on every retry.'),
    webhook_id: z.string(),
    event_id: z.string(),
    event: z.string(),
    status: z.enum(['pending', 'delivered', 'failed', 'stopped']),
    attempt_count: z.number().int(),
    next_attempt_at: Timestamp.nullable(),
    stopped_reason: z.string().nullable(),
    created_at: Timestamp,
    attempts: z.array(Attempt).describe('Oldest first.'),
  })
  .meta({ id: 'WebhookDelivery' });
export type DeliveryView = z.infer<typeof Delivery>;

export const DeliveryParams = z.object({ id: z.string().min(1).max(100), delivery_id: z.string().min(1).max(100) });

export const ListWebhooksQuery = z.object({ workspace_id: WorkspaceIdInput });

export const ListDeliveriesQuery = z.object({
  limit: queryInt('limit').optional().describe('Default 20; values above 100 are clamped to 100.'),
  offset: queryInt('offset').optional(),
});

export const ListWebhooksResponse = z.object({ success: z.literal(true), webhooks: z.array(Webhook) });
export const CreateWebhookResponse = z.object({ success: z.literal(true), webhook: CreatedWebhook });
export const WebhookResponse = z.object({ success: z.literal(true), webhook: Webhook });
export const DeleteWebhookResponse = z.object({ success: z.literal(true), id: z.string(), deleted: z.literal(true) });
export const ListDeliveriesResponse = z.object({ success: z.literal(true), deliveries: z.array(Delivery), total: z.number().int() });
export const DeliveryResponse = z.object({ success: z.literal(true), delivery: Delivery });
