import { timingSafeEqual, createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Metrics } from '../ops/metrics.js';

/**
 * Counts every response by method, route pattern (not the raw URL, so ids do
 * not explode the label set) and status, and serves GET /metrics in the
 * Prometheus text format. Register before the route scopes so the hook covers them.
 * /metrics shows traffic and queue sizes: with `token` (METRICS_TOKEN) it needs that Bearer token,
 * otherwise it answers direct loopback connections only: the socket address, never one a proxy reports.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics, token?: string): void {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    countHttpRequest(metrics, req.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    checkAccess(req, token);
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}

/** One answered request in http_requests_total and http_request_duration_seconds: the framework's hook and the hot path both count here. */
export function countHttpRequest(metrics: Metrics, method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, seconds);
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function checkAccess(req: FastifyRequest, token: string | undefined) {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    // Hashes are equal-length, so the comparison takes the same time whatever was sent.
    if (!timingSafeEqual(digest(given), digest(token))) {
      throw new AppError('unauthorized', '/metrics needs Authorization: Bearer <METRICS_TOKEN>', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    return;
  }
  // A reverse proxy on the same host connects from loopback for every client, so a forwarded request
  // is never local, whatever address it claims; TRUST_PROXY does not change that.
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  if (forwarded || !isLoopback(req.socket.remoteAddress ?? '')) {
    throw new AppError('forbidden', '/metrics answers direct loopback clients only (no X-Forwarded-For or Forwarded); set METRICS_TOKEN to scrape it from elsewhere');
  }
}

function isLoopback(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const addr = ipaddr.process(ip);
  return addr.range() === 'loopback';
}
