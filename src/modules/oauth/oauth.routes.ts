import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { requestOrigin } from '../../http/origin.js';
import { describeBadText, findBadText } from '../../lib/bad-text.js';
import { WorkspaceIdInput } from '../../lib/schema-fields.js';
import { hasScope, SCOPES } from '../../auth/scopes.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { AuthContext } from '../../auth/context.js';
import { consoleCookie } from '../console/console.cookie.js';
import type { ConsoleSessionsService } from '../console/console.service.js';
import type { OAuthClient, OAuthClients } from './oauth.clients.js';
import { redirectMatches } from './oauth.clients.js';
import { CONSENT_HEADERS, consentPage, errorPage } from './oauth.consent.js';
import { OAuthError } from './oauth.errors.js';
import { checkAuthorizationRequest, type OAuthService } from './oauth.service.js';

export const MCP_RESOURCE_PATH = '/mcp';
const CSRF_COOKIE = 'sw_oauth_csrf';
/** Dynamic registrations per client address per hour (in this process). */
const REGISTRATIONS_PER_HOUR = 20;

type Form = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** A form parameter whose percent-escapes are not UTF-8 (how a lone surrogate arrives in a form), kept aside for the check below. */
const MALFORMED = Symbol('malformed form parameter');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One name or value as WHATWG form decoding reads it ('+' is a space, a '%' without two hex digits is
 * itself), except that escapes that are not UTF-8 fail (decodeURIComponent throws) instead of becoming
 * U+FFFD.
 */
function decodeFormPart(raw: Buffer): string | undefined {
  try {
    return decodeURIComponent(
      strictUtf8
        .decode(raw)
        .replace(/\+/g, ' ')
        .replace(/%(?![0-9a-fA-F]{2})/g, '%25'),
    );
  } catch {
    return undefined;
  }
}

/** Repeated names (the consent page's scope boxes) become arrays. */
function parseForm(body: Buffer): Form {
  const form: Form & { [MALFORMED]?: string } = {};
  for (let start = 0; start <= body.length;) {
    let end = body.indexOf(0x26, start); // '&'
    if (end < 0) end = body.length;
    const pair = body.subarray(start, end);
    start = end + 1;
    if (pair.length === 0) continue;
    const eq = pair.indexOf(0x3d); // '='
    const rawName = eq < 0 ? pair : pair.subarray(0, eq);
    const k = decodeFormPart(rawName);
    const v = decodeFormPart(eq < 0 ? Buffer.alloc(0) : pair.subarray(eq + 1));
    if (k === undefined || v === undefined) {
      form[MALFORMED] ??= k ?? rawName.toString('latin1').slice(0, 100);
      continue;
    }
    const prev = form[k];
    form[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return form;
}

/**
 * NUL or a lone surrogate anywhere in a request to these endpoints, worded as the REST check words it.
 * Checked before any client lookup, so such text never reaches the database.
 */
function badTextIn(req: FastifyRequest): { message: string; field: string } | undefined {
  const bodyWhere = req.routeOptions.url === '/oauth/register' ? 'field' : 'parameter';
  const malformed = (req.body as { [MALFORMED]?: string } | undefined)?.[MALFORMED];
  if (malformed !== undefined) {
    return { field: malformed, message: `${bodyWhere} '${malformed}' is not valid percent-encoded UTF-8 (a broken escape or an encoded lone surrogate); text must be valid Unicode without NUL` };
  }
  for (const [value, where] of [
    [req.query, 'query parameter'],
    [req.body, bodyWhere],
  ] as const) {
    const bad = findBadText(value);
    if (bad) return { field: bad.path, message: describeBadText(bad, where) };
  }
  return undefined;
}

/** The issuer and resource origin: PUBLIC_URL, else the listen address (src/http/origin.ts: never an arbitrary Host header). */
export const originOf = requestOrigin;
export const resourceMetadataUrl = (publicUrl: string | undefined, req: FastifyRequest) => `${originOf(publicUrl, req)}/.well-known/oauth-protected-resource${MCP_RESOURCE_PATH}`;

export interface OAuthRouteDeps {
  oauth: OAuthService;
  clients: OAuthClients;
  apiKeys: ApiKeysService;
  consoleSessions: ConsoleSessionsService;
  publicUrl?: string;
}

/** The authorization server and the protected-resource metadata, outside /v1 (no API key on these). */
export async function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): Promise<void> {
  const { oauth, clients, publicUrl } = deps;
  const hide = { schema: { hide: true } };

  const protectedResource = async (req: FastifyRequest) => {
    const origin = originOf(publicUrl, req);
    return {
      resource: `${origin}${MCP_RESOURCE_PATH}`,
      authorization_servers: [origin],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Sheet Workspace',
    };
  };
  app.get('/.well-known/oauth-protected-resource', hide, protectedResource);
  app.get(`/.well-known/oauth-protected-resource${MCP_RESOURCE_PATH}`, hide, protectedResource);
  app.get('/.well-known/oauth-authorization-server', hide, async (req) => {
    const origin = originOf(publicUrl, req);
    return {
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...SCOPES],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    };
  });

  await app.register(async (scope) => {
    // RFC 6749 bodies are form-encoded.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => done(null, parseForm(body as Buffer)));
    // Per endpoint, the error its RFC defines: registration 400 invalid_client_metadata (RFC 7591), token
    // and revocation 400 invalid_request, authorization the error page (no redirect_uri is trusted yet).
    scope.addHook('preValidation', async (req, reply) => {
      const bad = badTextIn(req);
      if (!bad) return;
      const route = req.routeOptions.url;
      if (route === '/oauth/authorize') {
        // A key that cannot be valid is still a failed sign-in, as on the console.
        if (req.method === 'POST' && bad.field === 'api_key') await req.server.rateLimits?.authFailure(req, reply);
        return reply.code(400).headers(CONSENT_HEADERS).type('text/html; charset=utf-8').send(errorPage(bad.message));
      }
      throw new OAuthError(route === '/oauth/register' ? 'invalid_client_metadata' : 'invalid_request', bad.message);
    });
    scope.setErrorHandler((err, _req, reply) => {
      if (err instanceof OAuthError) return sendOAuthError(reply, err);
      if (err instanceof AppError && err.code === 'rate_limited')
        return reply
          .code(429)
          .headers(err.headers ?? {})
          .send({ error: 'temporarily_unavailable', error_description: err.message });
      const status = (err as { statusCode?: number }).statusCode ?? 500;
      if (status >= 500) {
        reply.log.error({ err }, 'OAuth endpoint failed');
        return reply.code(500).send({ error: 'server_error', error_description: 'Internal error; retry later' });
      }
      return reply.code(400).send({ error: 'invalid_request', error_description: (err as Error).message });
    });

    const registrations = new Map<string, { count: number; resetAt: number }>();
    scope.post('/oauth/register', hide, async (req, reply) => {
      const now = Date.now();
      const seen = registrations.get(req.ip);
      const window = seen && seen.resetAt > now ? seen : { count: 0, resetAt: now + 3600_000 };
      if (window.count >= REGISTRATIONS_PER_HOUR) {
        return reply
          .code(429)
          .header('retry-after', String(Math.ceil((window.resetAt - now) / 1000)))
          .send({ error: 'temporarily_unavailable', error_description: 'Too many registrations from this address; retry later' });
      }
      registrations.set(req.ip, { ...window, count: window.count + 1 });
      if (registrations.size > 10_000) for (const [ip, w] of registrations) if (w.resetAt <= now) registrations.delete(ip);
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object');
      const { client, issuedAt } = await clients.register(body);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({
          client_id: client.id,
          client_id_issued_at: issuedAt,
          client_name: client.name,
          redirect_uris: client.redirectUris,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        });
    });

    scope.get('/oauth/authorize', hide, async (req, reply) => authorizePage(req, reply, deps, req.query as Form));
    scope.post('/oauth/authorize', hide, async (req, reply) => decide(req, reply, deps, (req.body ?? {}) as Form));

    scope.post('/oauth/token', hide, async (req, reply) => {
      const f = (req.body ?? {}) as Form;
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const grantType = one(f.grant_type);
      if (grantType === 'authorization_code') {
        return oauth.exchangeCode({ code: one(f.code), clientId: one(f.client_id), redirectUri: one(f.redirect_uri), verifier: one(f.code_verifier), resource: one(f.resource), address: req.ip });
      }
      if (grantType === 'refresh_token') {
        return oauth.refresh({ refreshToken: one(f.refresh_token), clientId: one(f.client_id), scope: one(f.scope), resource: one(f.resource), address: req.ip });
      }
      throw new OAuthError(grantType ? 'unsupported_grant_type' : 'invalid_request', grantType ? `grant_type ${grantType} is not supported` : 'grant_type is missing');
    });

    scope.post('/oauth/revoke', hide, async (req, reply) => {
      await oauth.revokeToken(one(((req.body ?? {}) as Form).token));
      return reply.code(200).header('cache-control', 'no-store').send({});
    });
  });
}

function sendOAuthError(reply: FastifyReply, err: OAuthError) {
  return reply.code(err.status).header('cache-control', 'no-store').send(err.body());
}

const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'scope', 'state', 'resource'] as const;

interface Checked {
  client: OAuthClient;
  redirectUri: string;
  params: Record<string, string>;
}

/**
 * Who the client is and where errors may go. Until the redirect_uri is known to belong to the client,
 * errors are shown here (400 page), never redirected (RFC 6749 section 4.1.2.1).
 */
async function checkClient(deps: OAuthRouteDeps, f: Form, req: FastifyRequest, reply: FastifyReply): Promise<Checked | undefined> {
  const params: Record<string, string> = {};
  for (const k of AUTHORIZE_PARAMS) {
    const v = one(f[k]);
    if (v !== undefined) params[k] = v;
  }
  let client: OAuthClient;
  try {
    client = await deps.clients.resolve(params.client_id, req.ip);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    reply
      .code(err.status === 429 ? 429 : 400)
      .headers(CONSENT_HEADERS)
      .type('text/html; charset=utf-8')
      .send(errorPage(err.description));
    return undefined;
  }
  const redirectUri = params.redirect_uri;
  if (!redirectUri || !redirectMatches(client.redirectUris, redirectUri)) {
    reply.code(400).headers(CONSENT_HEADERS).type('text/html; charset=utf-8').send(errorPage('redirect_uri is missing or is not one this client registered'));
    return undefined;
  }
  return { client, redirectUri, params };
}

function redirectWith(reply: FastifyReply, c: Checked, origin: string, values: Record<string, string>) {
  const url = new URL(c.redirectUri);
  for (const [k, v] of Object.entries(values)) url.searchParams.set(k, v);
  if (c.params.state !== undefined) url.searchParams.set('state', c.params.state);
  url.searchParams.set('iss', origin);
  return reply.code(302).headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(url.href);
}

/** The request itself (oauth.service checkAuthorizationRequest), with this server's /mcp as the resource. */
const checkRequest = (c: Checked, origin: string) => checkAuthorizationRequest(c.params, `${origin}${MCP_RESOURCE_PATH}`);

async function sessionUser(deps: OAuthRouteDeps, req: FastifyRequest): Promise<{ auth: AuthContext; name: string } | undefined> {
  const token = consoleCookie(req, deps.publicUrl);
  if (!token) return undefined;
  try {
    const auth = await deps.consoleSessions.authenticate(token);
    return { auth, name: (await deps.consoleSessions.describe(token)).name };
  } catch {
    return undefined;
  }
}

/** The consent page; with an error, shown again (401 by default: a key or choice to correct). */
async function authorizePage(req: FastifyRequest, reply: FastifyReply, deps: OAuthRouteDeps, f: Form, error?: string, status = 401) {
  const c = await checkClient(deps, f, req, reply);
  if (!c) return reply;
  const origin = originOf(deps.publicUrl, req);
  let scopes: string[];
  try {
    scopes = checkRequest(c, origin).scopes;
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    return redirectWith(reply, c, origin, { error: err.error, error_description: err.description });
  }
  const csrf = randomBytes(24).toString('base64url');
  const secure = origin.startsWith('https:') ? '; Secure' : '';
  const session = await sessionUser(deps, req);
  const workspaces = session && (await deps.oauth.consentWorkspaces(session.auth));
  return reply
    .code(error ? status : 200)
    .headers(CONSENT_HEADERS)
    .header('set-cookie', `${CSRF_COOKIE}=${csrf}; Path=/oauth; HttpOnly; SameSite=Strict${secure}`)
    .type('text/html; charset=utf-8')
    .send(
      consentPage({
        clientName: c.client.name,
        redirectHost: new URL(c.redirectUri).host || c.redirectUri,
        scopes,
        params: c.params,
        csrf,
        signedInAs: session?.name,
        workspaces,
        workspaceId: one(f.workspace_id),
        error,
      }),
    );
}

function csrfValid(req: FastifyRequest, sent: string | undefined): boolean {
  const cookie = req.headers.cookie
    ?.split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${CSRF_COOKIE}=`))
    ?.slice(CSRF_COOKIE.length + 1);
  if (!cookie || !sent) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function decide(req: FastifyRequest, reply: FastifyReply, deps: OAuthRouteDeps, f: Form) {
  const c = await checkClient(deps, f, req, reply);
  if (!c) return reply;
  if (!csrfValid(req, one(f.csrf_token))) {
    return reply.code(403).headers(CONSENT_HEADERS).type('text/html; charset=utf-8').send(errorPage('The form expired or did not come from this page; start the connection again from the app'));
  }
  const origin = originOf(deps.publicUrl, req);
  let requested: { scopes: string[]; resource: string };
  try {
    requested = checkRequest(c, origin);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    return redirectWith(reply, c, origin, { error: err.error, error_description: err.description });
  }
  if (one(f.decision) !== 'allow') return redirectWith(reply, c, origin, { error: 'access_denied', error_description: 'The user denied access' });

  // A typed key decides whose grant this is, even with a console session: the cookie is SameSite=Strict,
  // so a consent page opened from another site shows the key field to a signed-in person, and this
  // same-site POST then carries the cookie too. The session is used only when no key was typed.
  const typedKey = (one(f.api_key) ?? '').trim();
  const session = typedKey ? undefined : await sessionUser(deps, req);
  let auth: AuthContext;
  if (session) auth = session.auth;
  else {
    // The form checks API keys, so it shares the per-address failed-authentication limit with
    // bad keys and console sign-ins; an address over it is refused (429) before the lookup.
    const limits = req.server.rateLimits;
    await limits?.refuseBlockedAddress(req, reply);
    try {
      auth = await deps.apiKeys.authenticate(`Bearer ${typedKey}`);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'unauthorized')) throw err;
      await limits?.authFailure(req, reply);
      return authorizePage(req, reply, deps, f, `${err.message}. Enter a valid API key.`);
    }
  }
  const chosen = [f.scope_choice ?? []].flat().filter((s): s is string => typeof s === 'string');
  const scopes = requested.scopes.filter((s) => chosen.includes(s));
  if (scopes.length === 0) return authorizePage(req, reply, deps, f, 'Choose at least one permission, or press Deny.');
  // The app never gets more than the credential that approved it.
  const beyond = scopes.find((s) => !hasScope(auth.scopes, s));
  if (beyond) return authorizePage(req, reply, deps, f, `This API key lacks ${beyond}; untick it or use another key.`);
  const workspaceId = one(f.workspace_id)?.trim() || undefined;
  if (workspaceId !== undefined && !WorkspaceIdInput.safeParse(workspaceId).success)
    return authorizePage(req, reply, deps, f, 'The workspace must be a workspace id (wsp_...), as GET /v1/workspaces lists them, or empty for your personal one.', 400);
  const approval = { clientId: c.client.id, redirectUri: c.redirectUri, codeChallenge: c.params.code_challenge, scopes, resource: requested.resource, approvedByKey: auth.keyId, workspaceId };
  let code: string;
  try {
    code = await deps.oauth.issueCode(auth, approval);
  } catch (err) {
    // Not a member of the picked workspace, or beyond the approving key's own workspace.
    if (!(err instanceof AppError && (err.code === 'forbidden' || err.code === 'not_found'))) throw err;
    return authorizePage(req, reply, deps, f, `${err.message}. Pick one of your workspaces.`, err.code === 'forbidden' ? 403 : 404);
  }
  return redirectWith(reply, c, origin, { code });
}
