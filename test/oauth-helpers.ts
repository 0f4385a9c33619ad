import assert from 'node:assert/strict';
import { randomBytes, createHash } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TestServer } from './helpers.js';
import { testPki } from './webhooks-helpers.js';

export const REDIRECT = 'http://127.0.0.1:7777/callback';

/** An MCP host's OAuth state, kept in memory: what claude.ai or an IDE would store. */
export class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authUrl?: URL;
  constructor(
    readonly redirectUrl = REDIRECT,
    readonly clientMetadataUrl?: string,
    readonly name = 'Test Agent',
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state = () => randomBytes(8).toString('hex');
  clientInformation = () => this.info;
  saveClientInformation = (i: OAuthClientInformationMixed) => void (this.info = i);
  tokens = () => this.saved;
  saveTokens = (t: OAuthTokens) => void (this.saved = t);
  redirectToAuthorization = (url: URL) => void (this.authUrl = url);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The consent page read as a browser would: hidden fields, scope boxes, the CSRF cookie. */
export async function openConsent(url: string, cookie = '') {
  const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const html = await res.text();
  const hidden: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[m[1]] = unescape(m[2]);
  const scopes = [...html.matchAll(/name="scope_choice" value="([^"]+)"/g)].map((m) => m[1]);
  const csrfCookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return { res, html, hidden, scopes, csrfCookie };
}

/** Submits the consent form as the person would; returns where the server sends the browser. */
export async function submitConsent(s: TestServer, page: Awaited<ReturnType<typeof openConsent>>, o: { key?: string; decision?: 'allow' | 'deny'; scopes?: string[]; cookie?: string; csrf?: string }) {
  const form = new URLSearchParams(page.hidden);
  if (o.csrf !== undefined) form.set('csrf_token', o.csrf);
  for (const sc of o.scopes ?? page.scopes) form.append('scope_choice', sc);
  if (o.key) form.set('api_key', o.key);
  form.set('decision', o.decision ?? 'allow');
  const cookie = [page.csrfCookie, o.cookie].filter(Boolean).join('; ');
  const res = await fetch(`${s.url}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form.toString() });
  return { res, location: res.headers.get('location') ? new URL(res.headers.get('location')!) : undefined, text: await res.text() };
}

/** Approves an authorization URL with an API key over plain HTTP; returns the code. */
export async function approve(s: TestServer, authUrl: URL | string, key: string, scopes?: string[]) {
  const page = await openConsent(String(authUrl));
  assert.equal(page.res.status, 200, page.html);
  const r = await submitConsent(s, page, { key, scopes });
  assert.equal(r.res.status, 302, r.text);
  const code = r.location!.searchParams.get('code');
  assert.ok(code, `redirected with ${r.location}`);
  return { code, location: r.location! };
}

/** The whole SDK flow: connect (401), discovery, registration, consent (by `consent`), finishAuth, connect again. */
export async function connectWithOAuth(s: TestServer, provider: MemoryProvider, consent: (authUrl: URL) => Promise<string>) {
  const url = new URL(`${s.url}/mcp`);
  const first = new Client({ name: 'oauth-test', version: '1.0.0' });
  const t1 = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await assert.rejects(first.connect(t1), UnauthorizedError);
  assert.ok(provider.authUrl, 'the SDK asked to open the authorization page');
  await t1.finishAuth(await consent(provider.authUrl!));
  return connectWithTokens(s, provider);
}

export async function connectWithTokens(s: TestServer, provider: MemoryProvider) {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider }));
  return client;
}

/** A PKCE pair and a registered client, for driving the endpoints by hand. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function register(s: TestServer, redirect = REDIRECT, name = 'Manual Client') {
  const r = await fetch(`${s.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
  });
  assert.equal(r.status, 201);
  return (await r.json()) as { client_id: string };
}

export function authorizeUrl(s: TestServer, params: Record<string, string | undefined>) {
  const u = new URL(`${s.url}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u;
}

export async function token(s: TestServer, form: Record<string, string>) {
  const r = await fetch(`${s.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: r.status, body: (await r.json()) as any };
}

/** A raw tools/list over /mcp with a Bearer token: the HTTP status and WWW-Authenticate. */
export async function mcpStatus(s: TestServer, bearer: string) {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await r.text();
  return { status: r.status, challenge: r.headers.get('www-authenticate') };
}

/** A client ID metadata document on a local HTTPS server (certificate from the throwaway test CA). */
export async function serveMetadataDocument() {
  const { key, cert } = testPki();
  let fetches = 0;
  const server = https.createServer({ key, cert }, (req, res) => {
    fetches++;
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`;
    const doc = { client_id: url, client_name: 'Metadata Agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/other.json') doc.client_id = 'https://elsewhere.example/client.json';
    if (req.url === '/big.json') doc.client_name = 'x'.repeat(6000);
    res.end(JSON.stringify(doc));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/client.json`, fetches: () => fetches, close: () => new Promise<void>((r) => server.close(() => r())) };
}
