import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import type { ApiKeysService } from './api-keys.service.js';
import { CreateApiKeyBody, CreateApiKeyResponse, DisableApiKeyResponse, ListApiKeysResponse } from './api-keys.schemas.js';

export function registerApiKeyRoutes(app: ZApp, apiKeys: ApiKeysService) {
  const tags = ['API keys'];
  app.get('/api-keys', {
    schema: { tags, operationId: 'listApiKeys', summary: 'List issued keys (never the full key)', response: responses(ListApiKeysResponse) },
    handler: async (req) => ({ success: true as const, api_keys: await apiKeys.list(req.auth.userId) }),
  });
  app.post('/api-keys', {
    schema: { tags, operationId: 'createApiKey', summary: 'Issue a key', body: CreateApiKeyBody, response: responses(CreateApiKeyResponse, 403, 413, 415) },
    handler: async (req) => {
      const { name, scopes, expires_at } = req.body;
      const key = await apiKeys.create(req.auth.userId, name, undefined, { scopes, expires_at, issuer: req.auth.scopes, issuerExpiresAt: req.auth.expiresAt, issuerGrant: req.auth.grantId });
      return { success: true as const, api_key: key.api_key, id: key.id, name: key.name, scopes: key.key.scopes, expires_at: key.key.expires_at };
    },
  });
  app.delete('/api-keys/:id', {
    schema: { tags, operationId: 'disableApiKey', summary: 'Disable a key; it stops working on the next request', params: IdParams, response: responses(DisableApiKeyResponse, 403, 404) },
    handler: async (req) => ({ success: true as const, ...(await apiKeys.disable(req.auth.userId, req.params.id)) }),
  });
}
