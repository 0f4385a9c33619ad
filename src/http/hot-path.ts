import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../ops/metrics.js';
import type { AuthContext } from '../auth/context.js';
import type { RateLimits } from './rate-limit.js';

/**
 * Hot paths: the requests agents send most (GET /v1/sheets/{id}) answered before Fastify's router.
 * The framework's per-request work (routing, the hook chain, request and reply objects, schema
 * checks of an empty query and of the answer) was a fifth of the gap to the raw floor, and the
 * rest lay in what a route does around its query (docs/performance.md, tenth pass).
 *
 * A hot route only answers the plain, successful case, through the same service calls, scope table
 * and rate limit as its Fastify route, with the same bytes. Whatever it does not recognise (a query
 * string, another credential, an error of any kind, a server that is closing) goes to Fastify
 * untouched, which then answers exactly as if the hot path did not exist.
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
  /** True once the server is closing: then Fastify answers (503 and Connection: close). */
  closing: () => boolean;
}

/** The options of Fastify's that it applies to a server it makes; FastifyServerFactory types them loosely. */
interface ServerSettings {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/** A plan-limit count a hot route made before it handed the request to Fastify: its headers, and its 429 if it refused. */
interface PlanCount {
  headers: HotAnswer['headers'];
  refusal?: unknown;
}
const planCounts = new WeakMap<IncomingMessage, PlanCount>();

/**
 * Counts the request against its account's plan limit, as the /v1 auth hook does, and keeps the
 * outcome on the request: if the hot route then hands it to Fastify (a 404, a 403...), the auth
 * hook applies that outcome instead of counting the request a second time.
 */
export async function countPlanLimit(req: IncomingMessage, limits: RateLimits | undefined, auth: AuthContext): Promise<HotAnswer['headers']> {
  const count: PlanCount = { headers: {} };
  planCounts.set(req, count);
  const reply = {
    header(name: string, value: string | number) {
      count.headers[name] = value;
      return reply;
    },
  };
  try {
    // The limiter reads the credential and the route's rate-limit config (none) from the request.
    await limits?.account({ auth, routeOptions: {} } as never, reply as never);
  } catch (err) {
    count.refusal = err;
    throw err;
  }
  return count.headers;
}

/** The plan-limit count a hot route already made for this request, if any (taken once). */
export function takePlanCount(req: IncomingMessage): PlanCount | undefined {
  const count = planCounts.get(req);
  planCounts.delete(req);
  return count;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Fastify's serverFactory: the HTTP server Fastify would make, with the hot routes tried first. */
export function hotPathServer(deps: HotPathDeps): FastifyServerFactory {
  return (fastifyHandler, fastifyOptions) => {
    const opts = fastifyOptions as ServerSettings;
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
    const server = http.createServer(opts.http ?? {}, handle);
    // The settings Fastify gives the server it makes itself (fastify/lib/server.js).
    server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
    server.requestTimeout = opts.requestTimeout ?? 0;
    server.setTimeout(opts.connectionTimeout ?? 0);
    if (opts.maxRequestsPerSocket) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
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
  const seconds = (performance.now() - started) / 1000;
  const labels = { method: req.method ?? 'GET', route: answer.route, status: String(answer.status) };
  deps.metrics.httpRequests.inc(labels);
  deps.metrics.hotPathAnswers.inc({ route: answer.route });
  deps.metrics.httpDuration.observe(labels, seconds);
  const log = deps.logger();
  if (log?.isLevelEnabled?.('info')) {
    log.info({ req: { method: req.method, url: req.url, hot: true }, res: { statusCode: answer.status }, responseTime: seconds * 1000 }, 'request completed');
  }
}
