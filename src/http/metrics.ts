import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../ops/metrics.js';

/**
 * Counts every response by method, route pattern (not the raw URL, so ids do
 * not explode the label set) and status, and serves GET /metrics in the
 * Prometheus text format. Register before the route scopes so the hook covers them.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}
