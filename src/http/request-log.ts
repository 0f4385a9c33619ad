import type { FastifyInstance } from 'fastify';

/**
 * On a terminal a person reads the log: one short line per request (method, route pattern, status,
 * time) instead of Fastify's two multi-line records, so the owner key printed at start stays in view.
 * The route pattern, never the raw URL: a URL may carry a token (export downloads, OAuth).
 */
export function registerOneLineRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? req.url.split('?')[0];
    req.log.info(`${req.method} ${route} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`);
  });
}
