import type { FastifyInstance } from 'fastify';
import pkg from '../../package.json' with { type: 'json' };

/** Where a newcomer goes from the service root; paths, so they hold behind any proxy. */
export const LINKS = {
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
  const handler = async (req: { headers: Record<string, string | string[] | undefined> }, reply: { redirect: (url: string, code?: number) => unknown }) => {
    const accept = String(req.headers.accept ?? '');
    if (/\btext\/html\b/.test(accept)) return reply.redirect(LINKS.console, 302);
    return {
      success: true,
      name: 'Sheet Workspace',
      version: pkg.version,
      message: 'The REST API lives under /v1 (send Authorization: Bearer <key>); open /console in a browser, or /playground to try requests.',
      links: LINKS,
      docs: 'README.md (first hour) and docs/ in the source tree; docs/api.md lists every route',
    };
  };
  app.get('/', { schema: { hide: true } }, handler as never);
  app.get('/v1', { schema: { hide: true } }, handler as never);
}
