import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { OAuthClientsTable } from '../../db/types.js';
import { describeBadText, findBadText } from '../../lib/bad-text.js';
import { createGuardedClient, type GuardedClient } from '../../webhook-delivery/guarded-client.js';
import { OAuthError } from './oauth.errors.js';
import { DOCUMENT_TIMEOUT_MS, createMetadataFetcher } from './oauth.metadata.js';
import type { OAuthRepo } from './oauth.repo.js';

/** How long a fetched client ID metadata document is used (src/modules/oauth/oauth.metadata.ts fetches it). */
const DOCUMENT_CACHE_MS = 3600_000;
/** Unused dynamic registrations go after 30 days (checked on every registration). */
const UNUSED_CLIENT_MS = 30 * 86_400_000;

export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
}

/**
 * A loopback redirect, read on the raw string: scheme and host spelled exactly so, an optional port,
 * then path and query (no userinfo, no fragment). Nothing is parsed or normalised, so `127.1`,
 * `2130706433`, `evil@127.0.0.1`, `/x/../cb` or a `#` never pass for a registered URI.
 */
const LOOPBACK_REDIRECT = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(?::(\d{1,5}))?((?:[/?][^#]*)?)$/;

/** https anywhere; http only to the loopback (RFC 8252); a private-use scheme for native apps; nothing script-like. */
export function acceptableRedirectUri(uri: string): boolean {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.hash) return false;
  if (u.protocol === 'https:') return true;
  if (u.protocol === 'http:') return LOOPBACK_REDIRECT.test(uri);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol) || /^(cursor|vscode|claude):$/.test(u.protocol);
}

/**
 * The raw strings are equal, except that a loopback redirect may use any port (RFC 8252 section 7.3:
 * the port alone may vary). No URL parsing: a parser's normalisation is what would let variants pass.
 */
export function redirectMatches(registered: string[], uri: string): boolean {
  if (registered.includes(uri)) return true;
  const asked = LOOPBACK_REDIRECT.exec(uri);
  if (!asked) return false;
  return registered.some((r) => {
    const known = LOOPBACK_REDIRECT.exec(r);
    return !!known && known[1] === asked[1] && known[3] === asked[3];
  });
}

const isMetadataUrl = (id: string) => {
  try {
    const u = new URL(id);
    return u.protocol === 'https:' && u.pathname !== '/' && !u.hash && !u.username && !u.password;
  } catch {
    return false;
  }
};

function validRedirects(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 20 || !value.every((v) => typeof v === 'string' && v.length <= 2000)) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URLs');
  }
  const bad = value.find((v) => !acceptableRedirectUri(v));
  if (bad) throw new OAuthError('invalid_redirect_uri', `redirect_uri ${bad} is not allowed: use https, http on the loopback, or an app scheme`);
  return value as string[];
}

const clientName = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 100) : fallback);

/** Dynamic registrations (RFC 7591) and client ID metadata documents, resolved to one shape. */
export function createOAuthClients(deps: { repo: OAuthRepo; clock: Clock; client: GuardedClient }) {
  const { repo, clock, client } = deps;
  const toClient = (row: OAuthClientsTable): OAuthClient => ({ id: row.id, name: row.client_name, redirectUris: JSON.parse(row.redirect_uris) as string[] });

  /**
   * A fetched document as a client, its text and redirect URIs checked, stored as the cached copy
   * (created_at and last_used_at of an existing row are kept). Failures are remembered with fetch failures.
   */
  const documents = createMetadataFetcher({
    client,
    clock,
    successMs: DOCUMENT_CACHE_MS,
    read: async (url, doc): Promise<OAuthClient> => {
      // Its client_name is stored: NUL would fail on PostgreSQL, a lone surrogate would be mangled.
      const bad = findBadText(doc);
      if (bad) throw new OAuthError('invalid_client', `The client ID metadata document at ${url} is refused: ${describeBadText(bad)}`);
      const found: OAuthClient = { id: url, name: clientName(doc.client_name, new URL(url).host), redirectUris: validRedirects(doc.redirect_uris) };
      const now = clock.now().toISOString();
      await repo.upsertMetadataClient({ id: url, kind: 'metadata', client_name: found.name, redirect_uris: JSON.stringify(found.redirectUris), created_at: now, fetched_at: now, last_used_at: null });
      return found;
    },
  });

  return {
    async register(body: Record<string, unknown>) {
      const redirectUris = validRedirects(body.redirect_uris);
      const now = clock.now();
      await repo.purgeUnusedClients(new Date(now.getTime() - UNUSED_CLIENT_MS).toISOString());
      const row: OAuthClientsTable = {
        id: `mcpc_${randomBytes(16).toString('base64url')}`,
        kind: 'registered',
        client_name: clientName(body.client_name, 'Unnamed MCP client'),
        redirect_uris: JSON.stringify(redirectUris),
        created_at: now.toISOString(),
        fetched_at: null,
        last_used_at: null,
      };
      await repo.insertClient(row);
      return { client: toClient(row), issuedAt: Math.floor(now.getTime() / 1000) };
    },

    /**
     * The client behind a client_id: a registration, or a metadata document (fetched at most hourly;
     * `address`, the asking client's, is counted when a fetch starts).
     */
    async resolve(clientId: string | undefined, address?: string): Promise<OAuthClient> {
      if (!clientId) throw new OAuthError('invalid_client', 'client_id is missing');
      const row = await repo.findClient(clientId);
      if (row?.kind === 'registered') return toClient(row);
      if (!isMetadataUrl(clientId)) throw new OAuthError('invalid_client', 'Unknown client_id; register the client again');
      if (row?.fetched_at && clock.now().getTime() - Date.parse(row.fetched_at) < DOCUMENT_CACHE_MS) return toClient(row);
      return documents.fetch(clientId, address);
    },

    touch: (id: string) => repo.touchClient(id, clock.now().toISOString()),
    close: () => client.close(),
  };
}
export type OAuthClients = ReturnType<typeof createOAuthClients>;

/** Metadata documents are fetched through the webhook SSRF guard (same CA and private-target settings). */
export function oauthHttpClient(config: { allowPrivateTargets: boolean; caFile?: string }): GuardedClient {
  return createGuardedClient({ allowPrivate: config.allowPrivateTargets, caFile: config.caFile, connectTimeoutMs: DOCUMENT_TIMEOUT_MS });
}
