import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.js';
import { credentialKind, type AuthContext } from '../auth/context.js';
import type { ConsoleCookieAuth } from '../modules/console/console.cookie.js';
import { requireScopes, requiredScopes } from '../auth/scopes.js';

/** Another kind of Bearer credential (OAuth access tokens); credentialKind tells it from an API key by its form. */
export interface BearerAuth {
  authenticate(header: string): Promise<AuthContext>;
}

/** The checks of each kind of credential a scope accepts (a console session only where consoleAuth is given). */
export interface Credentials {
  apiKeys: ApiKeysService;
  consoleAuth?: ConsoleCookieAuth;
  tokens?: BearerAuth;
}

/** An Authorization header's credential: an OAuth access token when it has that form, else an API key. */
export function authenticateBearer(
  header: string | undefined,
  apiKeys: ApiKeysService,
  tokens?: BearerAuth,
  /** The auth generation read alongside the request's own statement (ApiKeysService.authenticate). */
  generation?: number,
): Promise<AuthContext> {
  const kind = credentialKind({ authorization: header, consoleCookie: false });
  return kind === 'oauth_client' && tokens ? tokens.authenticate(header!) : apiKeys.authenticate(header, generation);
}

/** A request's credential, checked by the one check of its kind (src/auth/context.ts credentialKind decides which). */
export function authenticateRequest(req: FastifyRequest, { apiKeys, consoleAuth, tokens }: Credentials): Promise<AuthContext> {
  const authorization = req.headers.authorization;
  // Web console only: no Authorization header but a console session cookie (plus X-Console: 1).
  if (consoleAuth && credentialKind({ authorization, consoleCookie: consoleAuth.hasCookie(req) }) === 'console') return consoleAuth.authenticate(req);
  return authenticateBearer(authorization, apiKeys, tokens);
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
      req.auth = await authenticateRequest(req, { apiKeys, consoleAuth, tokens });
    } catch (err) {
      if (limits && err instanceof AppError && err.code === 'unauthorized') await limits.authFailure(req, reply);
      throw err;
    }
    if (!limits) throw new AppError('unavailable', 'Rate limits are not set up on this server, so requests are refused rather than served unlimited');
    // Counted once per request: a hot route that handed this request on has counted it already.
    const counted = await limits.countRequest(req.raw, req.auth);
    reply.headers(counted.headers);
    if (counted.refusal) throw counted.refusal;
    // One table for every /v1 route (by path prefix and method); MCP checks each tool instead.
    requireScopes(req.auth.scopes, requiredScopes(req.method, req.routeOptions.url, (req.query as Record<string, unknown> | undefined)?.action));
  });
}
