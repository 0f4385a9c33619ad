import type { ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { API_PREFIX } from './openapi.js';

/**
 * How long a client may take to send a request, and how much an unauthenticated one may send.
 *
 * Without a request timeout, a client sending one byte every few seconds held its connection (and a
 * file descriptor) for ever; 1,100 of them starved the process. Node closes a connection whose headers,
 * or whole request, have not arrived in time (408). These bound receiving the request only: a response
 * that takes long (the event stream, a slow Spark behind MCP) is not cut. Node checks the open
 * connections every `connectionsCheckingInterval` (30 s by default), so that is a second here.
 */
export function requestTimeoutOptions(t: Config['httpTimeouts']): { requestTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: t.requestMs,
    http: { headersTimeout: t.headersMs, requestTimeout: t.requestMs, connectionsCheckingInterval: Math.min(1000, t.headersMs) },
  };
}

/** Bodies of routes anyone may call (OAuth token, registration, revocation and consent, console sign-in): none needs more. */
export const UNAUTHENTICATED_BODY_LIMIT = 16 * 1024;

/**
 * Routes outside /v1 and /mcp take no credential before their body is read, so their bodies are bounded
 * small; /v1 and /mcp authenticate in onRequest, before reading the body, and keep the 1 MiB limit.
 * Call before registering routes: onRoute sees the routes registered after it.
 */
export function limitUnauthenticatedBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path ?? '';
    if (url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url === '/mcp') return;
    route.bodyLimit ??= UNAUTHENTICATED_BODY_LIMIT;
  });
}
