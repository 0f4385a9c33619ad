import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { AuthContext } from '../api-keys/api-keys.service.js';
import type { ConsoleSessionsService } from './console.service.js';

export const CONSOLE_COOKIE = 'sw_console';
/** Cookie-authenticated requests must carry this header; a cross-site form or <img> cannot set it (CSRF guard). */
export const CONSOLE_HEADER = 'x-console';

export function consoleCookie(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  // Our token is base64url, so no decoding is needed; the first sw_console wins.
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === CONSOLE_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

function serializeCookie(value: string, expires: Date, secure: boolean): string {
  return `${CONSOLE_COOKIE}=${value}; Path=/; Expires=${expires.toUTCString()}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function requireConsoleHeader(req: FastifyRequest): void {
  if (req.headers[CONSOLE_HEADER] !== '1') {
    throw new AppError('forbidden', 'Console requests must send the header X-Console: 1 (cross-site request protection)');
  }
}

export function setCookieHeader(req: FastifyRequest, token: string, expires: Date, secureOrigin: boolean): string {
  return serializeCookie(token, expires, secureOrigin || req.protocol === 'https');
}

export const clearCookieHeader = () => serializeCookie('', new Date(0), false);

/**
 * The /v1 auth hook's cookie path, kept apart from API-key auth: it applies only when a request has no
 * Authorization header but has a console cookie, and then also needs X-Console: 1.
 */
export interface ConsoleCookieAuth {
  applies(req: FastifyRequest): boolean;
  authenticate(req: FastifyRequest): Promise<AuthContext>;
}

export function consoleCookieAuth(sessions: ConsoleSessionsService): ConsoleCookieAuth {
  return {
    applies: (req) => !req.headers.authorization && consoleCookie(req) !== undefined,
    async authenticate(req) {
      const auth = await sessions.authenticate(consoleCookie(req)!);
      requireConsoleHeader(req);
      return auth;
    },
  };
}
