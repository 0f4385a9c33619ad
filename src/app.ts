import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Container } from './container.js';
import { requireApiKey } from './http/auth.js';
import { refuseBadText } from './http/bad-text.js';
import { refuseUnknownInput } from './http/unknown-input.js';
import { helmetHeaders, registerSecurityHeaders } from './http/security-headers.js';
import { hotPathServer } from './http/hot-path.js';
import { registerHealth } from './http/health.js';
import { registerLanding } from './http/landing.js';
import { RequestLog } from './http/request-log.js';
import { registerIdempotency } from './http/idempotency.js';
import { registerHttpMetrics } from './http/metrics.js';
import { withRedactedUrls } from './http/log-redaction.js';
import { registerRateLimits } from './http/rate-limit.js';
import { frameworkErrors, registerErrorHandling } from './http/errors.js';
import { clientErrorHandler } from './http/client-errors.js';
import { API_PREFIX, registerOpenApi } from './http/openapi.js';
import type { ZApp } from './http/types.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { limitUnauthenticatedBodies } from './http/request-bounds.js';
import { BODY_LIMIT, serverSettings } from './http/server-settings.js';
import { registerMcpEndpoint } from './mcp/http.js';
import { requestOrigin } from './http/origin.js';
import { registerConnectedAppRoutes } from './modules/oauth/connected-apps.routes.js';
import { registerOAuthRoutes, resourceMetadataUrl } from './modules/oauth/oauth.routes.js';
import { accessTokenAuth } from './modules/oauth/oauth.service.js';
import { registerApiKeyRoutes } from './modules/api-keys/api-keys.routes.js';
import { registerExportDownloadRoute, registerExportRoutes } from './modules/exports/exports.routes.js';
import { consoleCookieAuth } from './modules/console/console.cookie.js';
import { registerConsolePages, registerConsoleSessionRoutes } from './modules/console/console.routes.js';
import { registerSheetRoutes } from './modules/sheets/sheets.routes.js';
import { hotSheetRead } from './modules/sheets/sheets.hot.routes.js';
import { registerKnowledgeRoutes } from './modules/knowledge/knowledge.routes.js';
import { registerDistillRoutes } from './modules/distill/distill.routes.js';
import { registerSessionRoutes } from './modules/sessions/sessions.routes.js';
import { registerBriefingRoutes } from './modules/briefing/briefing.routes.js';
import { registerSearchRoutes } from './modules/search/search.routes.js';
import { registerAccountRoutes } from './modules/account/account.routes.js';
import { registerSparkRoutes } from './modules/sparks/sparks.routes.js';
import { registerStatsRoutes } from './modules/stats/stats.routes.js';
import { registerTodoRoutes } from './modules/todos/todos.routes.js';
import { registerWorkspaceRoutes } from './modules/workspaces/workspaces.routes.js';
import { registerShareRoutes, registerSharedReadRoutes } from './modules/shares/shares.routes.js';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.routes.js';
import { registerEventRoutes } from './modules/events/events.routes.js';

export interface AppOptions {
  logger?: boolean | object;
  /** 'line': one short log line per request (a person reading a terminal) instead of Fastify's request records. */
  requestLog?: 'records' | 'line';
  /** Hot paths before the framework (src/http/hot-path.ts); on unless false. Tests turn them off to compare. */
  hotPaths?: boolean;
}

/** The HTTP face of the container. Tests call this too, then listen on a loopback port. */
export async function buildApp(c: Container, opts: AppOptions = {}): Promise<FastifyInstance> {
  const securityHeaders = helmetHeaders();
  const tokens = accessTokenAuth(c.oauth);
  let closing = false;
  // One set of server settings and one request log for Fastify and the hot path in front of it.
  const settings = serverSettings(c.config);
  const requestLog = new RequestLog(opts.requestLog ?? 'records');
  const hotPaths = hotPathServer({
    routes: [hotSheetRead({ apiKeys: c.apiKeys, tokens, limits: () => app.rateLimits, sheets: c.sheets })],
    headers: securityHeaders,
    metrics: c.metrics,
    logger: () => app.log as Logger,
    requestLog,
    settings,
    closing: () => closing,
  });
  const app = Fastify({
    logger: withRedactedUrls(opts.logger ?? { level: c.config.logLevel }),
    ...settings,
    frameworkErrors,
    clientErrorHandler,
    logController: requestLog,
    ...(opts.hotPaths === false ? {} : { serverFactory: hotPaths }),
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  limitUnauthenticatedBodies(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerSecurityHeaders(app, securityHeaders);
  acceptEmptyJsonBodies(app);
  await registerOpenApi(app);
  registerHttpMetrics(app, c.metrics, c.config.metricsToken);
  const limits = await registerRateLimits(app, { config: c.config, redis: c.redis, metrics: c.metrics });

  registerExportDownloadRoute(app as unknown as ZApp, c.exports);
  // Share links are read without a key, but with the same refusals of bad text and undeclared input as /v1.
  await app.register(async (shared) => {
    refuseBadText(shared);
    refuseUnknownInput(shared);
    registerSharedReadRoutes(shared as unknown as ZApp, c.shares, limits.sharedRead);
  });
  registerConsoleSessionRoutes(app as unknown as ZApp, c.consoleSessions, c.config.publicUrl);
  await registerConsolePages(app);
  registerHealth(app, { db: c.db, redis: c.redis });
  registerLanding(app);
  await app.register(async (mcp) => {
    requireApiKey(mcp, c.apiKeys, undefined, tokens);
    // Tells an MCP client where to start the OAuth flow (RFC 9728 section 5.1).
    mcp.addHook('onSend', async (req, reply) => {
      if (reply.statusCode === 401) reply.header('www-authenticate', `Bearer resource_metadata="${resourceMetadataUrl(c.config.publicUrl, req)}"`);
    });
    registerMcpEndpoint(mcp, c, { origin: (req) => requestOrigin(c.config.publicUrl, req) });
  });
  await registerOAuthRoutes(app, { oauth: c.oauth, clients: c.oauthClients, apiKeys: c.apiKeys, consoleSessions: c.consoleSessions, publicUrl: c.config.publicUrl });

  await app.register(
    async (v1) => {
      const api = v1 as unknown as ZApp;
      requireApiKey(v1, c.apiKeys, consoleCookieAuth(c.consoleSessions, c.config.publicUrl), tokens);
      refuseBadText(v1);
      refuseUnknownInput(v1);
      registerIdempotency(v1, c.idempotency);
      registerApiKeyRoutes(api, c.apiKeys);
      registerSheetRoutes(api, c.sheets);
      registerSessionRoutes(api, c.sessions);
      registerBriefingRoutes(api, c.briefing);
      registerSearchRoutes(api, c.search);
      registerAccountRoutes(api, c.accountExport);
      registerKnowledgeRoutes(api, c.knowledge);
      registerDistillRoutes(api, c.distill);
      registerSparkRoutes(api, c.sparks);
      registerTodoRoutes(api, c.todos);
      registerWorkspaceRoutes(api, c.workspaces, c.config.publicUrl);
      registerShareRoutes(api, c.shares, c.config.publicUrl);
      registerWebhookRoutes(api, c.webhooks);
      registerStatsRoutes(api, c.stats);
      registerExportRoutes(api, c.exports, c.config.publicUrl);
      registerEventRoutes(api, c.events, {
        apiKeys: c.apiKeys,
        consoleAuth: consoleCookieAuth(c.consoleSessions, c.config.publicUrl),
        tokens,
      });
      registerConnectedAppRoutes(api, c.oauth);
    },
    { prefix: API_PREFIX },
  );

  return app;
}

/** A POST with Content-Type: application/json and no body (e.g. /restore) is an empty request, not malformed JSON. */
function acceptEmptyJsonBodies(app: FastifyInstance) {
  // JSON is the only body type the API takes; anything else is a 415.
  app.removeAllContentTypeParsers();
  registerJsonBodyParser(app, BODY_LIMIT);
}
