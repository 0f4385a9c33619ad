import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import { workspaceRestriction, type AuthContext } from '../../auth/context.js';
import type { ConsoleSessionsRepo } from './console.repo.js';
import { FULL_ACCESS, hasScope } from '../../auth/scopes.js';
import { hashSecretToken, newSecretToken } from '../../lib/secret-token.js';

/** A console sign-in lasts 12 hours, then the API key must be entered again. */
export const CONSOLE_SESSION_TTL_MS = 12 * 3600 * 1000;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

const signedOut = () => new AppError('unauthorized', 'Console session expired or signed out; sign in again with an API key');

/**
 * Web console sessions: an API key is exchanged once for a random session token that lives only in an
 * httpOnly cookie; the server keeps its hash. The session acts as the key it was opened with, so
 * disabling that key ends the session too.
 */
export function createConsoleSessionsService(deps: { repo: ConsoleSessionsRepo; apiKeys: ApiKeysService; clock: Clock }) {
  const { repo, apiKeys, clock } = deps;

  async function resolve(token: string) {
    const row = TOKEN_FORMAT.test(token) ? await repo.findByTokenHash(hashSecretToken(token)) : undefined;
    if (!row || row.expires_at <= clock.now().toISOString()) throw signedOut();
    if (row.key_status !== 'active') throw new AppError('unauthorized', 'The API key this console session was opened with has been disabled');
    if (row.key_expires_at && row.key_expires_at <= clock.now().toISOString()) throw new AppError('unauthorized', 'The API key this console session was opened with has expired');
    return row;
  }

  return {
    async signIn(apiKey: string) {
      const auth = await apiKeys.authenticate(`Bearer ${apiKey}`);
      // A console session acts with full access, so only a full-access key may open one.
      if (!hasScope(auth.scopes, FULL_ACCESS)) {
        throw new AppError(
          'insufficient_scope',
          `The console needs a full-access API key (scope *); this key is limited to ${(auth.scopes ?? []).join(', ')}. ` +
            'Sign in with a key made without scopes (the owner key, or: npm run cli -- users key <user_id>).',
          undefined,
          { required_scope: FULL_ACCESS },
        );
      }
      const token = newSecretToken();
      const now = clock.now();
      // Expired sessions go on every sign-in (an indexed delete), besides the hourly purge in server.ts.
      await repo.deleteExpired(now.toISOString());
      const expiresAt = new Date(now.getTime() + CONSOLE_SESSION_TTL_MS);
      await repo.insert({
        id: newId('cs', now.getTime()),
        token_hash: hashSecretToken(token),
        user_id: auth.userId,
        key_id: auth.keyId,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      });
      return { token, expiresAt, auth };
    },

    async authenticate(token: string): Promise<AuthContext> {
      const row = await resolve(token);
      // Keys made from the console never outlive the key the session was opened with, nor reach
      // beyond the workspace it is restricted to.
      return {
        userId: row.user_id,
        plan: row.plan,
        keyId: row.key_id,
        expiresAt: row.key_expires_at ?? undefined,
        actor: { type: 'console', id: row.key_id, name: row.key_name },
        ...workspaceRestriction(row.workspace_id),
      };
    },

    async describe(token: string) {
      const row = await resolve(token);
      return { user_id: row.user_id, name: row.name, plan: row.plan, expires_at: row.expires_at };
    },

    async signOut(token: string) {
      if (TOKEN_FORMAT.test(token)) await repo.deleteByTokenHash(hashSecretToken(token));
    },

    purgeExpired() {
      return repo.deleteExpired(clock.now().toISOString());
    },
  };
}
export type ConsoleSessionsService = ReturnType<typeof createConsoleSessionsService>;
