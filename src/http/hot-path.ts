import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../ops/metrics.js';
import { countHttpRequest } from './metrics.js';
import type { RequestLog } from './request-log.js';
import { applyNodeSettings, type ServerSettings } from './server-settings.js';

/**
 * Hot paths: the requests agents send most (GET /v1/sheets/{id}) answered before Fastify's router.
 * The framework's per-request work (routing, the hook chain, request and reply objects, schema
 * checks of an empty query and of the answer) was a fifth of the gap to the raw floor, and the
 * rest lay in what a route does around its query (docs/performance.md, tenth pass).
 *
 * A hot route only answers the plain, successful case, through the same service calls, scope table
 * and rate limit as its Fastify route, with the same bytes. Whatever it does not recognise (a query
 * string, another credential, an error of any kind, a server that is closing) goes to Fastify
 * untouched, which then answers exactly as if the hot path did not exist. The gate: no request
 * body and a server that is not closing (here), then each route's own test (sheets.hot.routes.ts:
 * GET, an Authorization header, a plain path without a query).
 *
 * Its answers look like the framework's in the logs and the metrics: the same server settings and
 * request ids (server-settings.ts), log lines written by the same controller (request-log.ts, with
 * `answeredBy` saying which path answered) and the same metric series (metrics.ts), plus
 * http_hot_path_answers_total.
 */
export interface HotAnswer {
  status: 200 | 304;
  /** The route pattern, for the request metrics (the Fastify route's url). */
  route: string;
  headers: Record<string, string | number>;
  body?: Buffer;
}

/** Returns undefined at once when the request is not its kind; a promise of undefined to hand it to Fastify after all. */
export type HotRoute = (req: IncomingMessage) => Promise<HotAnswer | undefined> | undefined;

export interface HotPathDeps {
  routes: HotRoute[];
  /** The headers every response carries (security headers), set before the route's own. */
  headers: readonly (readonly [string, string])[];
  metrics: Metrics;
  logger: () => Logger | undefined;
  /** The request log lines, the same controller Fastify writes its lines with. */
  requestLog: RequestLog;
  /** The settings Fastify is given too: node server settings, trusted proxies, request ids. */
  settings: ServerSettings;
  /** True once the server is closing: then Fastify answers (503 and Connection: close). */
  closing: () => boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Fastify's serverFactory: the HTTP server Fastify would make, with the hot routes tried first. */
export function hotPathServer(deps: HotPathDeps): FastifyServerFactory {
  return (fastifyHandler) => {
    const baseHeaders: (string | number)[] = deps.headers.flat();
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const pending = deps.closing() ? undefined : firstMatch(deps.routes, req);
      if (!pending) return fastifyHandler(req, res);
      const started = performance.now();
      pending.then(
        (answer) => (answer ? send(deps, baseHeaders, req, res, answer, started) : fastifyHandler(req, res)),
        () => fastifyHandler(req, res),
      );
    };
    return applyNodeSettings(http.createServer(deps.settings.http, handle), deps.settings);
  };
}

function firstMatch(routes: HotRoute[], req: IncomingMessage) {
  // A request with a body is never a hot read.
  if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
  for (const route of routes) {
    const pending = route(req);
    if (pending) return pending;
  }
  return undefined;
}

function send(deps: HotPathDeps, baseHeaders: (string | number)[], req: IncomingMessage, res: ServerResponse, answer: HotAnswer, started: number) {
  // One writeHead with every header (node stores them in one pass) instead of a setHeader each.
  const headers = baseHeaders.slice();
  for (const name in answer.headers) headers.push(name, answer.headers[name]);
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers).end();
  } else {
    headers.push('content-type', JSON_TYPE, 'content-length', answer.body.length);
    res.writeHead(answer.status, headers).end(answer.body);
  }
  const ms = performance.now() - started;
  countHttpRequest(deps.metrics, req.method ?? 'GET', answer.route, answer.status, ms / 1000);
  deps.metrics.hotPathAnswers.inc({ route: answer.route });
  deps.requestLog.hotAnswered(deps.logger(), req, deps.settings, answer.route, answer.status, ms);
}
