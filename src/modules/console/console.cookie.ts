import { fastifyCookie } from '@fastify/cookie';
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
  return fastifyCookie.parse(header)[CONSOLE_COOKIE] || undefined;
}

export function requireConsoleHeader(req: FastifyRequest): void {
  if (req.headers[CONSOLE_HEADER] !== '1') {
    throw new AppError('forbidden', 'Console requests must send the header X-Console: 1 (cross-site request protection)');
  }
}

export function setCookieHeader(req: FastifyRequest, token: string, expires: Date, secureOrigin: boolean): string {
  return fastifyCookie.serialize(CONSOLE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: secureOrigin || req.protocol === 'https',
    expires,
  });
}

export const clearCookieHeader = () =>
  fastifyCookie.serialize(CONSOLE_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', expires: new Date(0) });

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
