import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

/**
 * Helmet on every route: X-Content-Type-Options: nosniff, X-Frame-Options: DENY, Referrer-Policy:
 * no-referrer, the CSP above, and the rest of helmet's defaults. Three of those defaults are off on
 * purpose: upgrade-insecure-requests (it breaks a plain-http install on a LAN address), HSTS, which
 * belongs to whatever terminates TLS (includeSubDomains there is the operator's choice), and
 * Cross-Origin-Opener-Policy, which would cut the link between an MCP client's window and the
 * OAuth consent page it opened as a popup.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: PAGE_CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: false,
  });
}
