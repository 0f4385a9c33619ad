import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The CSP of every response that does not set its own: the console's (scripts, styles and
 * connections only from this origin, no inline script, never framed). JSON answers carry it too,
 * harmlessly; the playground, the export downloads and the OAuth consent page set stricter or
 * page-specific ones, each with frame-ancestors 'none'.
 */
export const PAGE_CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'https:', 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: PAGE_CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
  crossOriginOpenerPolicy: false,
} as const;

/** The headers helmet sets with HELMET_OPTIONS, read once by running its middleware against a recording response. */
export function helmetHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = { setHeader: (name: string, value: unknown) => headers.push([name, String(value)]), removeHeader: () => undefined };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * Helmet's headers on every response: X-Content-Type-Options: nosniff, X-Frame-Options: DENY,
 * Referrer-Policy: no-referrer, the CSP above, and the rest of helmet's defaults. Three of those
 * defaults are off on purpose: upgrade-insecure-requests (it breaks a plain-http install on a LAN
 * address), HSTS, which belongs to whatever terminates TLS (includeSubDomains there is the
 * operator's choice), and Cross-Origin-Opener-Policy, which would cut the link between an MCP
 * client's window and the OAuth consent page it opened as a popup. Routes that need another CSP
 * (playground, exports, consent page) set their own header, which replaces this one.
 *
 * Why not @fastify/helmet: version 13 calls helmet(options) inside its onRequest hook, so every
 * request rebuilt the middleware and re-parsed the CSP directives; that was ~30 % of GET by id's
 * throughput (docs/performance.md). The headers do not depend on the request, so they are
 * computed once here, by helmet itself.
 */
export function registerSecurityHeaders(app: FastifyInstance, headers: readonly (readonly [string, string])[] = helmetHeaders()): void {
  app.addHook('onRequest', (_req, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
