import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import type { ApiKeysService } from './api-keys.service.js';
import { CreateApiKeyBody, CreateApiKeyResponse, DisableApiKeyResponse, ListApiKeysResponse } from './api-keys.schemas.js';

export function registerApiKeyRoutes(app: ZApp, apiKeys: ApiKeysService) {
  const tags = ['API keys'];
  app.get('/api-keys', {
    schema: { tags, operationId: 'listApiKeys', summary: 'List issued keys (never the full key)', response: responses(ListApiKeysResponse) },
    handler: async (req) => ({ success: true as const, api_keys: await apiKeys.list(req.auth) }),
  });
  app.post('/api-keys', {
    schema: { tags, operationId: 'createApiKey', summary: 'Issue a key', body: CreateApiKeyBody, response: responses(CreateApiKeyResponse, 403, 404, 413, 415) },
    handler: async (req) => {
      const { name, scopes, expires_at, workspace_id } = req.body;
      const { auth } = req;
      const issuer = { issuer: auth.scopes, issuerExpiresAt: auth.expiresAt, issuerGrant: auth.grantId, issuerWorkspace: auth.workspaceId };
      const key = await apiKeys.create(auth.userId, name, undefined, { scopes, expires_at, workspace_id, ...issuer });
      return { success: true as const, api_key: key.api_key, id: key.id, name: key.name, scopes: key.key.scopes, expires_at: key.key.expires_at, workspace_id: key.key.workspace_id };
    },
  });
  app.delete('/api-keys/:id', {
    schema: { tags, operationId: 'disableApiKey', summary: 'Disable a key; it stops working on the next request', params: IdParams, response: responses(DisableApiKeyResponse, 403, 404) },
    handler: async (req) => ({ success: true as const, ...(await apiKeys.disable(req.auth, req.params.id)) }),
  });
}
