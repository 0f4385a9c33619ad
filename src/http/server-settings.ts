import type { IncomingMessage, Server, ServerOptions } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.js';
import { MAX_PARAM_LENGTH } from './errors.js';
import { requestTimeoutOptions } from './request-bounds.js';

/** The largest request body /v1 and /mcp read (routes anyone may call take less: request-bounds.ts). */
export const BODY_LIMIT = 1024 * 1024;

/** Whether the hop-th address of a request (0: the socket's peer) is a proxy whose X-Forwarded-* is believed. */
export type TrustProxy = (address: string, hop: number) => boolean;

/** What the node server itself is given, whoever makes it: Fastify, or the hot path's server factory. */
export interface NodeServerSettings {
  http: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
}

/**
 * The settings of the HTTP server, defined once. They are handed to Fastify as its options, and the
 * hot path (hot-path.ts), which answers before Fastify on the same server, uses the same values:
 * the same node server settings, the same trusted proxies for the client address and host it logs,
 * and the same request ids.
 */
export interface ServerSettings extends NodeServerSettings {
  bodyLimit: number;
  trustProxy: TrustProxy | false;
  routerOptions: { ignoreTrailingSlash: boolean; maxParamLength: number };
  genReqId: (req: IncomingMessage) => string;
}

export function serverSettings(config: Pick<Config, 'httpTimeouts' | 'trustProxy'>): ServerSettings {
  return {
    ...requestTimeoutOptions(config.httpTimeouts),
    // Fastify's defaults, stated here so both servers use them.
    keepAliveTimeout: 72_000,
    connectionTimeout: 0,
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyFn(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    genReqId: requestIds(),
  };
}

/** Applies the node settings to a server made outside Fastify, as Fastify does to one it makes (fastify/lib/server.js). */
export function applyNodeSettings(server: Server, s: NodeServerSettings): Server {
  server.keepAliveTimeout = s.keepAliveTimeout;
  server.requestTimeout = s.requestTimeout;
  server.setTimeout(s.connectionTimeout);
  return server;
}

/** TRUST_PROXY as Fastify reads it (true: every hop; a string: comma-separated addresses, subnets or names), compiled once. */
function trustProxyFn(setting: boolean | string): TrustProxy | false {
  if (setting === false) return false;
  if (setting === true) return () => true;
  return proxyAddr.compile(setting.split(',').map((s) => s.trim()));
}

/** Fastify's own request ids (req-1, req-2... in base 36), one counter for both paths of a server. */
function requestIds(): (req: IncomingMessage) => string {
  let next = 0;
  return () => {
    next = (next + 1) & 0x7fffffff;
    return `req-${next.toString(36)}`;
  };
}
