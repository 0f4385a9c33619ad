import { createHash, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { transactionAlone } from '../../db/sqlite/group-commit.js';
import type { Db, Executor, OAuthTokensTable } from '../../db/types.js';
import { rowOwnedBy } from '../../db/owned.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { workspaceRestriction, type AuthContext } from '../../auth/context.js';
import { approverEnded } from '../api-keys/approver.js';
import { SCOPES } from '../../auth/scopes.js';
import type { OAuthClients } from './oauth.clients.js';
import { OAuthError } from './oauth.errors.js';
import type { OAuthRepo } from './oauth.repo.js';
import { credentialVisible, requireCredentialVisible, type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';
import { hashSecretToken, newSecretToken } from '../../lib/secret-token.js';

export const ACCESS_TTL_MS = 3600_000;
export const REFRESH_TTL_MS = 30 * 86_400_000;
const CODE_TTL_MS = 60_000;
const TOUCH_INTERVAL_MS = 60_000;
const ACCESS_FORMAT = /^swat_[A-Za-z0-9_-]{43}$/;

/** Codes and tokens carry 32 random bytes, so one SHA-256 is a safe at-rest hash (as for API keys). */
const isoIn = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** PKCE S256 (RFC 7636): BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** A requested `scope` string: unknown names are an error; absent means every scope. */
export function parseScope(scope: string | undefined): string[] {
  if (!scope?.trim()) return [...SCOPES];
  const asked = [...new Set(scope.trim().split(/\s+/))];
  const unknown = asked.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown) throw new OAuthError('invalid_scope', `Unknown scope ${unknown}`);
  return asked;
}

/**
 * An authorization request's rules (RFC 6749 4.1.1, RFC 7636, RFC 8707): a code response, PKCE with
 * S256 and a well-formed challenge, known scopes, and `resource` (if given) naming this server's /mcp.
 */
export function checkAuthorizationRequest(p: Record<string, string | undefined>, resource: string): { scopes: string[]; resource: string } {
  if (p.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code');
  if (!p.code_challenge) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (p.code_challenge_method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) throw new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256');
  if (p.resource !== undefined && p.resource !== resource) throw new OAuthError('invalid_target', `resource must be ${resource}`);
  return { scopes: parseScope(p.scope), resource };
}

export interface Approval {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  resource: string;
  /** The API key that approved (typed on the consent page, or the console session's key): the grant ends with it. */
  approvedByKey: string;
  /** The workspace picked on the consent page; absent: the approving key's, else the personal one. */
  workspaceId?: string;
}

const earlier = (a: string, b: string | null) => (b && Date.parse(b) < Date.parse(a) ? b : a);

export interface OAuthServiceDeps {
  db: Db;
  repo: OAuthRepo;
  clients: OAuthClients;
  clock: Clock;
  /** The consent's workspace: the approver must be in it, within its own key's restriction. */
  access: Pick<WorkspaceAccess, 'workspaceFor'>;
  workspaces: Pick<WorkspacesService, 'list'>;
  onTouchError?: (err: unknown) => void;
}

export function createOAuthService(deps: OAuthServiceDeps) {
  const { db, repo, clients, clock, access } = deps;

  async function tokensFor(grantId: string, scopes: string[], exec: Executor) {
    const now = clock.now();
    const access = newSecretToken('swat');
    const refresh = newSecretToken('swrt');
    const rows: OAuthTokensTable[] = [
      { token_hash: hashSecretToken(access), grant_id: grantId, kind: 'access', created_at: now.toISOString(), expires_at: isoIn(now, ACCESS_TTL_MS), used_at: null },
      { token_hash: hashSecretToken(refresh), grant_id: grantId, kind: 'refresh', created_at: now.toISOString(), expires_at: isoIn(now, REFRESH_TTL_MS), used_at: null },
    ];
    await repo.insertTokens(rows, exec);
    return { access_token: access, token_type: 'Bearer' as const, expires_in: ACCESS_TTL_MS / 1000, refresh_token: refresh, scope: scopes.join(' ') };
  }

  const revoke = (grantId: string) => repo.revokeGrant(grantId, clock.now().toISOString());

  return {
    /** The workspaces the consent page offers the approver (only its own one to a restricted credential). */
    async consentWorkspaces(caller: Caller) {
      return deps.workspaces.list(caller);
    },

    /**
     * After consent: a single-use code for the approval, valid one minute. The grant will reach only
     * the picked workspace; one the approver is not in, or beyond its key's restriction, is a 403/404 AppError.
     */
    async issueCode(caller: Caller, a: Approval) {
      const workspaceId = a.workspaceId ?? caller.workspaceId ?? personalWorkspaceId(caller.userId);
      await access.workspaceFor(caller, workspaceId, 'records.read');
      const userId = caller.userId;
      const code = newSecretToken('swac');
      const now = clock.now();
      // Each approval also clears expired codes and tokens (indexed deletes), so the tables stay small.
      await repo.purgeExpired(now.toISOString());
      await repo.insertCode({
        code_hash: hashSecretToken(code),
        user_id: userId,
        client_id: a.clientId,
        redirect_uri: a.redirectUri,
        code_challenge: a.codeChallenge,
        scopes: JSON.stringify(a.scopes),
        resource: a.resource,
        created_at: now.toISOString(),
        expires_at: isoIn(now, CODE_TTL_MS),
        used_at: null,
        grant_id: null,
        approved_by_key: a.approvedByKey,
        workspace_id: workspaceId,
      });
      return code;
    },

    /** `address`: the asking client's, for the metadata document fetch limit. */
    async exchangeCode(p: { code?: string; clientId?: string; redirectUri?: string; verifier?: string; resource?: string; address?: string }) {
      const client = await clients.resolve(p.clientId, p.address);
      if (!p.code) throw new OAuthError('invalid_request', 'code is missing');
      if (!p.verifier) throw new OAuthError('invalid_request', 'code_verifier is missing (PKCE is required)');
      const row = await repo.findCode(hashSecretToken(p.code));
      if (!row || row.client_id !== client.id) throw new OAuthError('invalid_grant', 'Unknown authorization code');
      // redirect_uri and the verifier are checked before the replay branch: only a replay by the holder
      // of the verifier revokes the grant, not anyone who saw a used code and the public client_id.
      if (row.redirect_uri !== p.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
      if (!verifierMatches(p.verifier, row.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
      if (row.used_at) {
        // A replayed code: whatever the first exchange issued is revoked (RFC 6749 section 4.1.2).
        if (row.grant_id) await revoke(row.grant_id);
        throw new OAuthError('invalid_grant', 'This authorization code was already used; the tokens issued for it are revoked');
      }
      if (row.expires_at <= clock.now().toISOString()) throw new OAuthError('invalid_grant', 'The authorization code has expired');
      if (p.resource && p.resource !== row.resource) throw new OAuthError('invalid_target', `resource must be ${row.resource}`);
      const now = clock.now();
      const ended = approverEnded(row, now);
      if (ended) throw new OAuthError('invalid_grant', `${ended}; authorize again`);
      const scopes = JSON.parse(row.scopes) as string[];
      const grantId = newId('grt', now.getTime());
      const tokens = await transactionAlone(db, async (trx) => {
        if (!(await repo.useCode(row.code_hash, now.toISOString(), grantId, trx))) return undefined;
        await repo.insertGrant(
          {
            id: grantId,
            user_id: row.user_id,
            client_id: client.id,
            client_name: client.name,
            scopes: row.scopes,
            resource: row.resource,
            status: 'active',
            created_at: now.toISOString(),
            last_used_at: null,
            revoked_at: null,
            approved_by_key: row.approved_by_key,
            workspace_id: row.workspace_id,
          },
          trx,
        );
        return tokensFor(grantId, scopes, trx);
      });
      if (!tokens) {
        // Lost a race with another exchange of the same code: that is a replay too.
        const winner = await repo.findCode(row.code_hash);
        if (winner?.grant_id) await revoke(winner.grant_id);
        throw new OAuthError('invalid_grant', 'This authorization code was already used; the tokens issued for it are revoked');
      }
      await clients.touch(client.id);
      return tokens;
    },

    async refresh(p: { refreshToken?: string; clientId?: string; scope?: string; resource?: string; address?: string }) {
      const client = await clients.resolve(p.clientId, p.address);
      if (!p.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is missing');
      const row = await repo.findToken(hashSecretToken(p.refreshToken));
      const grant = row?.kind === 'refresh' ? await repo.findGrant(row.grant_id) : undefined;
      if (!row || !grant || grant.client_id !== client.id) throw new OAuthError('invalid_grant', 'Unknown refresh token');
      if (grant.status !== 'active') throw new OAuthError('invalid_grant', 'This grant was revoked; authorize again');
      if (row.used_at) {
        // Rotation: a refresh token works once. A second use means it leaked, so the grant goes.
        await revoke(grant.id);
        throw new OAuthError('invalid_grant', 'This refresh token was already used; the grant is revoked, authorize again');
      }
      if (row.expires_at <= clock.now().toISOString()) throw new OAuthError('invalid_grant', 'The refresh token has expired; authorize again');
      // Refresh must not carry a grant past the key that approved it in 30-day steps.
      const ended = approverEnded(grant, clock.now());
      if (ended) throw new OAuthError('invalid_grant', `${ended}; authorize again`);
      if (p.resource && p.resource !== grant.resource) throw new OAuthError('invalid_target', `resource must be ${grant.resource}`);
      const granted = JSON.parse(grant.scopes) as string[];
      const scopes = p.scope?.trim() ? parseScope(p.scope) : granted;
      const extra = scopes.find((s) => !granted.includes(s));
      if (extra) throw new OAuthError('invalid_scope', `The grant does not include ${extra}`);
      // Tokens carry the grant's scopes (none are stored per token), so a narrower set is refused
      // rather than echoed in `scope` while the tokens keep every granted scope.
      if (scopes.length !== granted.length) throw new OAuthError('invalid_scope', "A refresh cannot narrow the scopes; it must ask for all the grant's scopes or omit scope; authorize again for fewer");
      const tokens = await transactionAlone(db, async (trx) => {
        if (!(await repo.useToken(row.token_hash, clock.now().toISOString(), trx))) return undefined;
        return tokensFor(grant.id, scopes, trx);
      });
      if (!tokens) {
        await revoke(grant.id);
        throw new OAuthError('invalid_grant', 'This refresh token was already used; the grant is revoked, authorize again');
      }
      return tokens;
    },

    /** RFC 7009: revoking either token ends the whole grant; unknown tokens are not an error. */
    async revokeToken(token: string | undefined) {
      if (!token) throw new OAuthError('invalid_request', 'token is missing');
      const row = await repo.findToken(hashSecretToken(token));
      if (row) await revoke(row.grant_id);
    },

    /** A Bearer access token as a request's credential: the approving account, the approved scopes. */
    async authenticate(header: string): Promise<AuthContext> {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
      if (!ACCESS_FORMAT.test(token)) throw new AppError('unauthorized', 'Malformed access token');
      const row = await repo.findAccess(hashSecretToken(token));
      if (!row || row.kind !== 'access') throw new AppError('unauthorized', 'Unknown access token');
      if (row.status !== 'active') throw new AppError('unauthorized', 'This access token was revoked');
      const now = clock.now();
      if (row.expires_at <= now.toISOString()) throw new AppError('unauthorized', 'This access token has expired; refresh it');
      const ended = approverEnded(row, now);
      if (ended) throw new AppError('unauthorized', `${ended}; authorize the app again`);
      if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= TOUCH_INTERVAL_MS) {
        repo.touchGrant(row.grant_id, now.toISOString(), new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString()).catch((err) => deps.onTouchError?.(err));
      }
      return {
        userId: row.user_id,
        plan: row.plan,
        keyId: row.grant_id,
        scopes: JSON.parse(row.scopes) as string[],
        actor: { type: 'oauth_client', id: row.client_id, name: row.client_name },
        // The token stops at its own expiry or its approving key's, whichever comes first.
        expiresAt: earlier(row.expires_at, row.key_expires_at),
        grantId: row.grant_id,
        ...workspaceRestriction(row.workspace_id),
      };
    },

    /** Connected apps of an account: the active grants whose approving key still vouches for them. */
    async listGrants(caller: Caller) {
      const now = clock.now();
      return (await repo.listGrants(caller.userId))
        .filter((g) => !approverEnded(g, now) && credentialVisible(caller, g))
        .map((g) => ({
          id: g.id,
          client_id: g.client_id,
          client_name: g.client_name,
          scopes: JSON.parse(g.scopes) as string[],
          created_at: g.created_at,
          last_used_at: g.last_used_at,
          workspace_id: g.workspace_id,
        }));
    },

    async revokeGrant(caller: Caller, id: string) {
      const grant = rowOwnedBy(await repo.findGrant(id), 'user_id', caller.userId, 'Connected app', id);
      requireCredentialVisible(caller, grant, 'connected app', id);
      await revoke(id);
      return { id, status: 'revoked' as const };
    },
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;

/** OAuth access tokens as the auth hook's second kind of Bearer credential (src/http/auth.ts; src/auth/context.ts tells them apart). */
export const accessTokenAuth = (oauth: OAuthService) => ({ authenticate: (header: string) => oauth.authenticate(header) });
