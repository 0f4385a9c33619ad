import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import type { ApiKeysService, AuthContext } from '../modules/api-keys/api-keys.service.js';
import type { ConsoleCookieAuth } from '../modules/console/console.cookie.js';
import { requireScope, requiredScope } from '../modules/api-keys/scopes.js';

/** Another kind of Bearer credential (OAuth access tokens), recognised by its form before API keys are tried. */
export interface BearerAuth {
  applies(header: string | undefined): boolean;
  authenticate(header: string): Promise<AuthContext>;
}

/**
 * Every route registered in this scope needs a valid Bearer key; the account lands on req.auth.
 * The same call protects /v1 and /mcp, so both share one set of limits: the key is checked
 * first (against the database, on every request, so a disabled key or a plan change counts at
 * once on every process), then the account's plan limit is counted. A failed authentication
 * counts against the client address instead; over that limit the 401 becomes a 429. A valid
 * key is never refused by the failed-auth limit.
 */
export function requireApiKey(scope: FastifyInstance, apiKeys: ApiKeysService, consoleAuth?: ConsoleCookieAuth, tokens?: BearerAuth): void {
  if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null as never);
  scope.addHook('onRequest', async (req, reply) => {
    const limits = scope.rateLimits;
    try {
      // Web console only: no Authorization header but a console session cookie (plus X-Console: 1).
      if (consoleAuth?.applies(req)) req.auth = await consoleAuth.authenticate(req);
      else if (tokens?.applies(req.headers.authorization)) req.auth = await tokens.authenticate(req.headers.authorization!);
      else req.auth = await apiKeys.authenticate(req.headers.authorization);
    } catch (err) {
      if (limits && err instanceof AppError && err.code === 'unauthorized') await limits.authFailure(req, reply);
      throw err;
    }
    await limits?.account(req, reply);
    // One table for every /v1 route (by path prefix and method); MCP checks each tool instead.
    const required = requiredScope(req.method, req.routeOptions.url, (req.query as Record<string, unknown> | undefined)?.action);
    if (required) requireScope(req.auth.scopes, required);
  });
}
