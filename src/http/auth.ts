import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.js';
import type { ConsoleCookieAuth } from '../modules/console/console.cookie.js';

/**
 * Every route registered in this scope needs a valid Bearer key; the account lands on req.auth.
 * The same call protects /v1 and /mcp, so both share one set of limits: the key is checked
 * first (against the database, on every request, so a disabled key or a plan change counts at
 * once on every process), then the account's plan limit is counted. A failed authentication
 * counts against the client address instead; over that limit the 401 becomes a 429. A valid
 * key is never refused by the failed-auth limit.
 */
export function requireApiKey(scope: FastifyInstance, apiKeys: ApiKeysService, consoleAuth?: ConsoleCookieAuth): void {
  if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null as never);
  scope.addHook('onRequest', async (req, reply) => {
    const limits = scope.rateLimits;
    try {
      // Web console only: no Authorization header but a console session cookie (plus X-Console: 1).
      if (consoleAuth?.applies(req)) req.auth = await consoleAuth.authenticate(req);
      else req.auth = await apiKeys.authenticate(req.headers.authorization);
    } catch (err) {
      if (limits && err instanceof AppError && err.code === 'unauthorized') await limits.authFailure(req, reply);
      throw err;
    }
    await limits?.account(req, reply);
  });
}
