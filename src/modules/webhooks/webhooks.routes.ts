import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import type { WebhooksService } from './webhooks.service.js';
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
} from './webhooks.schemas.js';

export function registerWebhookRoutes(app: ZApp, webhooks: WebhooksService) {
  const tags = ['Webhooks'];
  const ok = true as const;

  app.get('/webhooks', {
    schema: {
      tags,
      operationId: 'listWebhooks',
      summary: "List a workspace's webhooks (never their secrets)",
      querystring: ListWebhooksQuery,
      response: responses(ListWebhooksResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, webhooks: await webhooks.list(req.auth, req.query.workspace_id) }),
  });
  app.post('/webhooks', {
    schema: {
      tags,
      operationId: 'createWebhook',
      summary: 'Register a webhook (Pro plan or higher); the secret is returned only here',
      body: CreateWebhookBody,
      response: responses(CreateWebhookResponse, 403, 404, 415),
    },
    handler: async (req) => ({ success: ok, webhook: await webhooks.create(req.auth, req.auth.plan, req.body, req.auth.scopes) }),
  });
  app.delete('/webhooks/:id', {
    schema: { tags, operationId: 'deleteWebhook', summary: 'Delete a webhook and its delivery log', params: IdParams, response: responses(DeleteWebhookResponse, 403, 404) },
    handler: async (req) => ({ success: ok, ...(await webhooks.remove(req.auth, req.params.id)) }),
  });
  app.post('/webhooks/:id/enable', {
    schema: { tags, operationId: 'enableWebhook', summary: 'Enable a disabled webhook so new events flow again', params: IdParams, response: responses(WebhookResponse, 403, 404) },
    handler: async (req) => ({ success: ok, webhook: await webhooks.enable(req.auth, req.auth.plan, req.params.id) }),
  });
  app.get('/webhooks/:id/deliveries', {
    schema: {
      tags,
      operationId: 'listWebhookDeliveries',
      summary: 'Delivery log, newest first: status and every attempt (time, HTTP status, duration, error, first 1 KiB of the response)',
      params: IdParams,
      querystring: ListDeliveriesQuery,
      response: responses(ListDeliveriesResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, ...(await webhooks.deliveries(req.auth, req.params.id, req.query)) }),
  });
  app.post('/webhooks/:id/deliveries/:delivery_id/redeliver', {
    schema: {
      tags,
      operationId: 'redeliverWebhookDelivery',
      summary: 'Send one delivery again now, with a fresh retry schedule',
      params: DeliveryParams,
      response: responses(DeliveryResponse, 403, 404, 409),
    },
    handler: async (req) => ({
      success: ok,
      delivery: await webhooks.redeliver(req.auth, req.auth.plan, req.params.id, req.params.delivery_id),
    }),
  });
  app.post('/webhooks/:id/test', {
    schema: {
      tags,
      operationId: 'testWebhook',
      summary: 'Send a signed webhook.test event now and return the outcome (not retried)',
      params: IdParams,
      response: responses(DeliveryResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, delivery: await webhooks.test(req.auth, req.auth.plan, req.params.id) }),
  });
}
