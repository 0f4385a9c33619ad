import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { assertError, dialects, startServer, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok } from '../mcp-helpers.js';
import { REDIRECT, authorizeUrl, openConsent, pkce, register } from '../oauth-helpers.js';
import { testPki, webhookEnv } from '../webhooks-helpers.js';

/**
 * Issue 16, point 10, on the paths test/api/bad-text.test.ts does not reach: MCP resource URIs and prompt
 * arguments, the OAuth endpoints and the console sign-in. NUL and lone surrogates are refused naming
 * the field (never a 500, never an internal JSON-RPC error, never stored as U+FFFD), on both databases.
 */
const EXOTIC = 'abc\u202Eevil\u202C 👨‍👩‍👧‍👦 𠀋 e\u0301 \u2028x 😀';
const INVALID_PARAMS = -32602;

async function rejectsWith(p: Promise<unknown>, message: RegExp) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof McpError, `expected a JSON-RPC error, got ${String(err)}`);
    assert.equal(err.code, INVALID_PARAMS, err.message);
    assert.match(err.message, message);
    return true;
  });
}

/** A raw JSON or form body, so lone surrogates travel as the JSON escape `\ud800` or as the UTF-8 bytes of one. */
const post = (s: TestServer, path: string, body: string, type = 'application/x-www-form-urlencoded', headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': type, ...headers }, body });

async function oauthError(res: Response, status: number, error: string, description: RegExp) {
  const body = (await res.json()) as { error: string; error_description: string };
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.error, error);
  assert.match(body.error_description, description);
}

async function errorPage(res: Response, message: RegExp) {
  const html = await res.text();
  assert.equal(res.status, 400, html);
  assert.equal(res.headers.get('location'), null, 'never a redirect');
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  assert.match(html, message);
}

/** A client ID metadata document whose client_name holds NUL, as an HTTPS client_id. */
async function serveBadDocument() {
  const { key, cert } = testPki();
  const server = https.createServer({ key, cert }, (req, res) => {
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ client_id: url, client_name: 'Evil\u0000Agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

for (const dialect of dialects()) {
  describe(`bad text on MCP resources, prompts, OAuth and console sign-in [${dialect}]`, () => {
    let s: TestServer;
    let alice: { key: string; userId: string; personalWorkspace: string };
    let mcp: Client;
    let doc: Awaited<ReturnType<typeof serveBadDocument>>;
    before(async () => {
      doc = await serveBadDocument();
      s = await startServer(dialect, { env: webhookEnv() });
      alice = await s.user('pro');
      mcp = await httpClient(s, alice.key);
    });
    after(async () => {
      await mcp?.close();
      await s?.close();
      await doc?.close();
    });

    it('resources/read: NUL or a lone surrogate in a URI is invalid params naming the URI part', async () => {
      await rejectsWith(mcp.readResource({ uri: 'sheet://sht_a%00b' }), /URI part 'id' contains a NUL character \(U\+0000\)/);
      await rejectsWith(mcp.readResource({ uri: 'handover://p%00/latest' }), /URI part 'project' contains a NUL character/);
      // %ED%A0%80 is U+D800 encoded as if it were a character: not UTF-8, so not decoded into U+FFFD either.
      await rejectsWith(mcp.readResource({ uri: 'sheet://%ED%A0%80' }), /URI part 'id' is not valid percent-encoded UTF-8/);
      await rejectsWith(mcp.readResource({ uri: 'handover://%ED%B0%80/latest' }), /URI part 'project' is not valid percent-encoded UTF-8/);
      // Raw in the JSON string: a NUL made the SDK's URL parse an internal error; a lone surrogate became U+FFFD.
      await rejectsWith(mcp.readResource({ uri: 'sheet://a\u0000b' }), /parameter 'uri' contains a NUL character/);
      await rejectsWith(mcp.readResource({ uri: 'handover://x\ud800/latest' }), /parameter 'uri' contains a lone surrogate \(U\+D800\)/);
      await rejectsWith(mcp.readResource({ uri: 'sheet://a b' }), /is not a valid URI/);
      await rejectsWith(mcp.readResource({ uri: 'nothing://here' }), /Resource nothing:\/\/here not found/);
    });

    it('resources/read and resume_work: every other valid Unicode still round-trips', async () => {
      const made = ok(await mcp.callTool({ name: 'create_sheet', arguments: { title: EXOTIC } }));
      const read = await mcp.readResource({ uri: `sheet://${made.id}` });
      assert.equal(JSON.parse((read.contents[0] as { text: string }).text).title, EXOTIC);
      const session = ok(await mcp.callTool({ name: 'save_session', arguments: { title: 't', summary: 's', project: EXOTIC } }));
      const handover = ok(await mcp.callTool({ name: 'create_handover', arguments: { session_id: session.id, next_steps: ['go on'] } }));
      const latest = await mcp.readResource({ uri: `handover://${encodeURIComponent(EXOTIC)}/latest` });
      assert.equal(JSON.parse((latest.contents[0] as { text: string }).text).handover_id, handover.handover_id);
      const prompt = await mcp.getPrompt({ name: 'resume_work', arguments: { project: EXOTIC } });
      assert.match((prompt.messages[0].content as { text: string }).text, new RegExp(`sheet ${handover.handover_id}`));
    });

    it('prompts/get resume_work: NUL or a lone surrogate in project is invalid params naming it', async () => {
      await rejectsWith(mcp.getPrompt({ name: 'resume_work', arguments: { project: 'a\u0000b' } }), /argument 'project' contains a NUL character \(U\+0000\)/);
      await rejectsWith(mcp.getPrompt({ name: 'resume_work', arguments: { project: 'x\udc00' } }), /argument 'project' contains a lone surrogate \(U\+DC00\)/);
      await rejectsWith(mcp.getPrompt({ name: 'resume_work', arguments: { project: '  ' } }), /project must not be empty/);
    });

    it('POST /oauth/register: bad text in client_name is 400 invalid_client_metadata naming the field; nothing is stored', async () => {
      const clients = async () => (await s.c.db.selectFrom('oauth_clients').select('id').execute()).length;
      const before = await clients();
      const body = (name: string) => `{"client_name":"${name}","redirect_uris":["${REDIRECT}"],"token_endpoint_auth_method":"none"}`;
      await oauthError(await post(s, '/oauth/register', body('x\\ud800y'), 'application/json'), 400, 'invalid_client_metadata', /field 'client_name' contains a lone surrogate \(U\+D800\)/);
      await oauthError(await post(s, '/oauth/register', body('x\\u0000y'), 'application/json'), 400, 'invalid_client_metadata', /field 'client_name' contains a NUL character/);
      const inUri = `{"client_name":"ok","redirect_uris":["${REDIRECT}\\u0000"]}`;
      await oauthError(await post(s, '/oauth/register', inUri, 'application/json'), 400, 'invalid_client_metadata', /field 'redirect_uris\.0' contains a NUL/);
      assert.equal(await clients(), before, 'no registration was stored');
      const good = await post(s, '/oauth/register', body(EXOTIC), 'application/json');
      assert.equal(good.status, 201);
      assert.equal(((await good.json()) as { client_name: string }).client_name, EXOTIC.trim());
    });

    it('POST /oauth/token and /oauth/revoke: bad text in any parameter is 400 invalid_request naming it, before any lookup', async () => {
      const { client_id } = await register(s);
      const form = `grant_type=authorization_code&code_verifier=${pkce().verifier}&redirect_uri=${encodeURIComponent(REDIRECT)}`;
      await oauthError(await post(s, '/oauth/token', `${form}&code=swac_x&client_id=mcpc_%00`), 400, 'invalid_request', /parameter 'client_id' contains a NUL character/);
      await oauthError(await post(s, '/oauth/token', `${form}&client_id=${client_id}&code=a%00`), 400, 'invalid_request', /parameter 'code' contains a NUL/);
      // A lone surrogate can only reach a form as bytes that are not UTF-8.
      await oauthError(await post(s, '/oauth/token', `${form}&client_id=%ED%A0%80`), 400, 'invalid_request', /parameter 'client_id' is not valid percent-encoded UTF-8/);
      await oauthError(await post(s, '/oauth/token', `grant_type=refresh_token&refresh_token=x&client_id=${client_id}&scope=sheets%3Aread%00`), 400, 'invalid_request', /parameter 'scope' contains a NUL/);
      const json = `{"grant_type":"authorization_code","client_id":"\\ud800","code":"x"}`;
      await oauthError(await post(s, '/oauth/token', json, 'application/json'), 400, 'invalid_request', /parameter 'client_id' contains a lone surrogate \(U\+D800\)/);
      await oauthError(await post(s, '/oauth/revoke', 'token=swat_%00'), 400, 'invalid_request', /parameter 'token' contains a NUL/);
      // A stray % is still the literal character (WHATWG form decoding), not an error: an unknown client.
      await oauthError(await post(s, '/oauth/token', `${form}&client_id=100%`), 401, 'invalid_client', /Unknown client_id/);
    });

    it('/oauth/authorize: bad text is the 400 error page naming the parameter, never a redirect', async () => {
      const { client_id } = await register(s);
      const base = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' };
      const get = (params: Record<string, string>) => fetch(authorizeUrl(s, params), { redirect: 'manual' });
      await errorPage(await get({ ...base, client_id: 'mcpc_a\u0000b' }), /query parameter &#39;client_id&#39; contains a NUL character/);
      await errorPage(await get({ ...base, redirect_uri: `${REDIRECT}\u0000` }), /query parameter &#39;redirect_uri&#39; contains a NUL/);
      // Even with a known client and its redirect_uri, a NUL in state is shown here, not sent to the client.
      await errorPage(await get({ ...base, state: 'a\u0000' }), /query parameter &#39;state&#39; contains a NUL/);
      // A metadata document whose client_name holds NUL is refused rather than stored.
      await errorPage(await get({ ...base, client_id: doc.url }), /is refused: field &#39;client_name&#39; contains a NUL/);

      const page = await openConsent(String(authorizeUrl(s, base)));
      assert.equal(page.res.status, 200, page.html);
      const form = new URLSearchParams({ ...page.hidden, decision: 'allow', scope_choice: 'sheets:read' });
      const submit = (extra: string) => post(s, '/oauth/authorize', `${form}&${extra}`, undefined, { cookie: page.csrfCookie });
      await errorPage(await submit('api_key=sk_%00'), /parameter &#39;api_key&#39; contains a NUL/);
      await errorPage(await submit('api_key=%ED%A0%80'), /parameter &#39;api_key&#39; is not valid percent-encoded UTF-8/);
      const good = await submit(`api_key=${alice.key}`);
      assert.equal(good.status, 302, await good.text());
      assert.ok(new URL(good.headers.get('location')!).searchParams.get('code'));
    });

    it('POST /console/session: NUL or a lone surrogate in api_key is 400 naming the field', async () => {
      const signIn = (raw: string) => s.req('POST', '/console/session', { raw, headers: { 'content-type': 'application/json', 'x-console': '1' } });
      assertError(await signIn('{"api_key":"sk_\\u0000x"}'), 400, 'invalid_request', /field 'api_key' contains a NUL character \(U\+0000\)/);
      assertError(await signIn('{"api_key":"\\udc00"}'), 400, 'invalid_request', /field 'api_key' contains a lone surrogate \(U\+DC00\)/);
      assertError(await signIn('{"api_key":"sk_wrong"}'), 401, 'unauthorized');
    });
  });

  describe(`bad text in a key counts as a failed sign-in [${dialect}]`, () => {
    const { s } = useServer(dialect, { env: { AUTH_FAILURE_LIMIT: '2' } });

    it('console and consent-form keys with NUL count toward the per-address limit', async () => {
      const signIn = () => s.req('POST', '/console/session', { raw: '{"api_key":"sk_\\u0000"}', headers: { 'content-type': 'application/json', 'x-console': '1' } });
      assertError(await signIn(), 400, 'invalid_request', /'api_key'/);
      const { client_id } = await register(s);
      const page = await openConsent(String(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
      const form = new URLSearchParams({ ...page.hidden, decision: 'allow', scope_choice: 'sheets:read' });
      await errorPage(await post(s, '/oauth/authorize', `${form}&api_key=%00`, undefined, { cookie: page.csrfCookie }), /&#39;api_key&#39; contains a NUL/);
      const third = await signIn();
      assertError(third, 429, 'rate_limited', /Too many failed authentications/);
      assert.ok(Number(third.headers.get('retry-after')) > 0);
    });
  });
}
