import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pkg from '../../package.json' with { type: 'json' };

/** Where a newcomer goes from the service root; paths, so they hold behind any proxy. */
const LINKS = {
  console: '/console',
  playground: '/playground',
  openapi: '/v1/openapi.json',
  mcp: '/mcp',
  health: '/healthz',
} as const;

/**
 * `GET /` and `GET /v1` answer with the way in instead of a 404: a browser is sent to the console,
 * anything else gets the links as JSON.
 */
export function registerLanding(app: FastifyInstance): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (/\btext\/html\b/.test(req.headers.accept ?? '')) return reply.redirect(LINKS.console, 302);
    return {
      success: true,
      name: 'Sheet Workspace',
      version: pkg.version,
      message: 'The REST API lives under /v1 (send Authorization: Bearer <key>); open /console in a browser, or /playground to try requests.',
      links: LINKS,
      docs: 'README.md (first hour) and docs/ in the source tree; docs/api.md lists every route',
    };
  };
  app.get('/', { schema: { hide: true } }, handler);
  app.get('/v1', { schema: { hide: true } }, handler);
}
