import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { AuthContext } from '../../auth/context.js';
import type { ConsoleSessionsService } from './console.service.js';

/**
 * The cookie's name depends on the connection. Over HTTPS (the request's protocol, which honours
 * X-Forwarded-Proto only with TRUST_PROXY, or PUBLIC_URL is https) it is `__Host-sw_console`, Secure:
 * the prefix makes the browser refuse one set by a sibling subdomain or over plain http, so
 * nobody can plant a session of their own (fixation). Over plain http (a local install on
 * loopback) browsers drop Secure and __Host- cookies, so it is `sw_console` without Secure.
 * Each mode reads only its own name.
 */
export const CONSOLE_COOKIE = 'sw_console';
export const SECURE_CONSOLE_COOKIE = '__Host-sw_console';
/** Cookie-authenticated requests must carry this header; a cross-site form or <img> cannot set it (CSRF guard). */
export const CONSOLE_HEADER = 'x-console';

export function isSecureRequest(req: FastifyRequest, publicUrl?: string): boolean {
  return req.protocol === 'https' || (publicUrl?.startsWith('https://') ?? false);
}

const cookieName = (secure: boolean) => (secure ? SECURE_CONSOLE_COOKIE : CONSOLE_COOKIE);

export function consoleCookie(req: FastifyRequest, publicUrl?: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const name = cookieName(isSecureRequest(req, publicUrl));
  // Our token is base64url, so no decoding is needed; the first one of our name wins.
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

function serializeCookie(value: string, expires: Date, secure: boolean): string {
  return `${cookieName(secure)}=${value}; Path=/; Expires=${expires.toUTCString()}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function requireConsoleHeader(req: FastifyRequest): void {
  if (req.headers[CONSOLE_HEADER] !== '1') {
    throw new AppError('forbidden', 'Console requests must send the header X-Console: 1 (cross-site request protection)');
  }
}

export function setCookieHeader(req: FastifyRequest, token: string, expires: Date, publicUrl?: string): string {
  return serializeCookie(token, expires, isSecureRequest(req, publicUrl));
}

export const clearCookieHeader = (req: FastifyRequest, publicUrl?: string) => serializeCookie('', new Date(0), isSecureRequest(req, publicUrl));

/**
 * The /v1 auth hook's cookie path, kept apart from API-key auth: it applies only when a request has no
 * Authorization header but has a console cookie (src/auth/context.ts credentialKind), and then also
 * needs X-Console: 1.
 */
export interface ConsoleCookieAuth {
  hasCookie(req: FastifyRequest): boolean;
  authenticate(req: FastifyRequest): Promise<AuthContext>;
}

export function consoleCookieAuth(sessions: ConsoleSessionsService, publicUrl?: string): ConsoleCookieAuth {
  return {
    hasCookie: (req) => consoleCookie(req, publicUrl) !== undefined,
    async authenticate(req) {
      const auth = await sessions.authenticate(consoleCookie(req, publicUrl)!);
      requireConsoleHeader(req);
      return auth;
    },
  };
}
