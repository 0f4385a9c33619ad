import type { FastifyInstance } from 'fastify';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.js';

/** Every route registered in this scope needs a valid Bearer key; the account lands on req.auth. */
export function requireApiKey(scope: FastifyInstance, apiKeys: ApiKeysService): void {
  scope.decorateRequest('auth', null as never);
  scope.addHook('onRequest', async (req) => {
    req.auth = await apiKeys.authenticate(req.headers.authorization);
  });
}
