import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactUrl, type LoggedRequest } from './log-redaction.js';
import type { ServerSettings, TrustProxy } from './server-settings.js';

/** Which path answered a request: Fastify's router, or a hot route before it (hot-path.ts). Logged as `answeredBy`. */
export type AnsweredBy = 'framework' | 'hot-path';

/**
 * The request log lines of both paths, so they carry the same fields: Fastify calls this controller
 * for its requests, and the hot path calls `hotAnswered` for the ones it answers.
 *
 * 'records' (JSON for log collectors): Fastify's two lines per request, `incoming request` {reqId, req}
 * and `request completed` {reqId, res, responseTime}, the latter also saying `answeredBy`.
 * 'line' (a person reading a terminal): one short line per request (method, route pattern, status,
 * time) instead, so the owner key printed at start stays in view; the route pattern, never the raw
 * URL, which may carry a token (export downloads, share links, invitations, OAuth).
 */
export class RequestLog extends LogController {
  constructor(readonly style: 'records' | 'line') {
    super({ disableRequestLogging: style === 'line' });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.style === 'records' && this.isLogDisabled(request)) return;
    // A request no route matched (a 404) has no pattern: its path, with any token in it redacted.
    const route = request.routeOptions.url ?? redactUrl(request.url).split('?')[0]!;
    this.completed(reply.log, request.method, route, reply.statusCode, reply.elapsedTime, 'framework', error);
  }

  /** The lines of a request a hot route answered: written once it has answered, as one it hands to Fastify is logged by Fastify alone. */
  hotAnswered(logger: Logger | undefined, req: IncomingMessage, settings: ServerSettings, route: string, statusCode: number, ms: number): void {
    if (!logger?.isLevelEnabled?.('info')) return;
    const log = logger.child({ [this.requestIdLogLabel]: settings.genReqId(req) });
    if (this.style === 'records') log.info({ req: loggedRequest(req, settings.trustProxy) }, 'incoming request');
    this.completed(log, req.method ?? 'GET', route, statusCode, ms, 'hot-path');
  }

  private completed(log: Pick<Logger, 'info' | 'error'>, method: string, route: string, statusCode: number, ms: number, answeredBy: AnsweredBy, error?: Error | null) {
    if (this.style === 'line') return log.info(`${method} ${route} ${statusCode} ${ms.toFixed(1)} ms`);
    const res = { statusCode };
    if (error) log.error({ res, err: error, responseTime: ms, answeredBy }, 'request errored');
    else log.info({ res, responseTime: ms, answeredBy }, 'request completed');
  }
}

/** The raw request as Fastify's request shows it: client address and host as its getters give them with the same trusted proxies. */
function loggedRequest(req: IncomingMessage, trust: TrustProxy | false): LoggedRequest {
  return { method: req.method ?? 'GET', url: req.url ?? '', host: hostOf(req, trust), ip: trust ? proxyAddr(req, trust) : req.socket.remoteAddress, socket: req.socket };
}

/** Fastify's request.host (fastify/lib/request.js): X-Forwarded-Host, its last entry, only from a trusted peer. */
function hostOf(req: IncomingMessage, trust: TrustProxy | false): string {
  const forwarded = req.headers['x-forwarded-host'] as string | undefined;
  if (trust && forwarded && trust(req.socket.remoteAddress ?? '', 0)) return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
  return req.headers.host ?? (req.headers[':authority'] as string | undefined) ?? '';
}
