import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZApp } from '../../http/types.js';
import { sendError } from '../../http/errors.js';
import { AppError } from '../../errors.js';
import { describeBadText, findBadText } from '../../lib/bad-text.js';
import { projectRoot } from '../../lib/project-root.js';
import { clearCookieHeader, consoleCookie, requireConsoleHeader, setCookieHeader } from './console.cookie.js';
import type { ConsoleSessionsService } from './console.service.js';

/** Where `npm run build:console` writes the bundle (see console/vite.config.ts). */
export const CONSOLE_DIST = path.join(projectRoot(), 'dist/console');

const SignInBody = z.object({ api_key: z.string().min(1, 'api_key is required').max(200) });
const SessionResponse = z.object({
  success: z.literal(true),
  user_id: z.string(),
  name: z.string(),
  plan: z.enum(['free', 'pro', 'business']),
  expires_at: z.string(),
});

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** POST/GET/DELETE /console/session: trade an API key for an httpOnly session cookie, and back. */
export function registerConsoleSessionRoutes(app: ZApp, sessions: ConsoleSessionsService, publicUrl: string | undefined) {
  const schema = { hide: true };

  app.post('/console/session', {
    schema: { ...schema, body: SignInBody },
    handler: async (req, reply) => {
      requireConsoleHeader(req);
      // Sign-ins share the per-address failed-authentication limit with bad API keys; an address
      // over it is refused before the key is even looked up.
      const limits = app.rateLimits;
      await limits?.refuseBlockedAddress(req, reply);
      // Text no key can contain is named (400) instead of looked up, and still counts as a failed sign-in.
      const bad = findBadText(req.body);
      if (bad) {
        await limits?.authFailure(req, reply);
        throw new AppError('invalid_request', describeBadText(bad));
      }
      let signedIn;
      try {
        signedIn = await sessions.signIn(req.body.api_key.trim());
      } catch (err) {
        if (limits && err instanceof AppError && err.code === 'unauthorized') await limits.authFailure(req, reply);
        throw err;
      }
      const { token, expiresAt, auth } = signedIn;
      reply.header('set-cookie', setCookieHeader(req, token, expiresAt, publicUrl));
      return { success: true, user_id: auth.userId, plan: auth.plan, expires_at: expiresAt.toISOString() };
    },
  });

  app.get('/console/session', {
    schema: { ...schema, response: { 200: SessionResponse } },
    handler: async (req, reply) => {
      const token = consoleCookie(req, publicUrl);
      if (!token) return sendError(reply, 'unauthorized', 'Not signed in to the console');
      return { success: true as const, ...(await sessions.describe(token)) };
    },
  });

  app.delete('/console/session', {
    schema,
    handler: async (req, reply) => {
      requireConsoleHeader(req);
      const token = consoleCookie(req, publicUrl);
      if (token) await sessions.signOut(token);
      reply.header('set-cookie', clearCookieHeader(req, publicUrl));
      return { success: true };
    },
  });
}

/** The built single-page console under /console/, with a strict CSP (no inline script at all). */
export async function registerConsolePages(app: FastifyInstance, dist = CONSOLE_DIST) {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    app.get('/console/', { schema: { hide: true } }, (_req, reply) => sendError(reply, 'unavailable', 'The console is not built; run npm run build:console'));
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/console/',
    index: 'index.html',
    wildcard: true,
    cacheControl: false,
    // @fastify/static 9 hands over the raw response here, not the Fastify reply.
    setHeaders(res, file) {
      for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
      res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // With ignoreTrailingSlash, /console and /console/ are one route: serve the page itself (a redirect would loop).
  app.get('/console', { schema: { hide: true } }, (_req, reply) => reply.headers(PAGE_HEADERS).header('cache-control', 'no-cache').sendFile('index.html'));
}
