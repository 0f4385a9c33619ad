import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock } from '../../src/clock.js';
import { dialects, startServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { testPki, webhookEnv } from '../webhooks-helpers.js';
import { REDIRECT, MemoryProvider, serveMetadataDocument, approve, authorizeUrl, connectWithOAuth, connectWithTokens, mcpStatus, openConsent, pkce, register, submitConsent, token } from '../oauth-helpers.js';

for (const dialect of dialects()) {
  describe(`OAuth client ID metadata documents and the SSRF guard [${dialect}]`, () => {
    it('a document on a private address is not fetched without WEBHOOK_ALLOW_PRIVATE_TARGETS', async () => {
      const doc = await serveMetadataDocument();
      const s = await startServer(dialect, { env: { WEBHOOK_CA_FILE: testPki().caFile } });
      try {
        const r = await fetch(authorizeUrl(s, { response_type: 'code', client_id: doc.url, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
        assert.equal(r.status, 400);
        assert.match(await r.text(), /could not be used/);
        assert.equal(doc.fetches(), 0);
      } finally {
        await s.close();
        await doc.close();
      }
    });
  });
}

for (const dialect of dialects()) {
  describe(`OAuth 2.1 for MCP clients [${dialect}]`, () => {
    const clock = manualClock(new Date());
    let doc: Awaited<ReturnType<typeof serveMetadataDocument>>;
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, env: webhookEnv(), users: { alice: 'pro' } });
    before(async () => {
      doc = await serveMetadataDocument();
    });
    after(async () => {
      await doc.close();
    });

    it('publishes protected-resource and authorization-server metadata; /mcp 401 points at it', async () => {
      for (const p of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const prm = await s.req('GET', p);
        assert.equal(prm.status, 200);
        assert.equal(prm.body.resource, `${s.url}/mcp`);
        assert.deepEqual(prm.body.authorization_servers, [s.url]);
        assert.ok(prm.body.scopes_supported.includes('sheets:read'));
      }
      const as = (await s.req('GET', '/.well-known/oauth-authorization-server')).body;
      assert.equal(as.issuer, s.url);
      assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token']);
      assert.equal(as.client_id_metadata_document_supported, true);
      assert.equal(as.registration_endpoint, `${s.url}/oauth/register`);
      const r = await mcpStatus(s, 'nothing');
      assert.equal(r.status, 401);
      assert.equal(r.challenge, `Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp"`);
    });

    it('the SDK client registers dynamically, gets consent, and calls tools with its token (also on /v1)', async () => {
      const provider = new MemoryProvider();
      const client = await connectWithOAuth(s, provider, async (url) => (await approve(s, url, alice.key)).code);
      assert.match(String(provider.info?.client_id), /^mcpc_/);
      assert.equal(provider.saved?.token_type, 'Bearer');
      assert.equal(provider.saved?.expires_in, 3600);
      const created = await client.callTool({ name: 'create_sheet', arguments: { title: 'Made over OAuth' } });
      assert.notEqual(created.isError, true, JSON.stringify(created.content));
      await client.close();
      const list = await s.req('GET', '/v1/sheets', { key: provider.saved!.access_token });
      assert.equal(list.status, 200);
      assert.ok(list.body.sheets.some((x: any) => x.title === 'Made over OAuth'));
      const apps = await s.req('GET', '/v1/connected-apps', { key: alice.key });
      const app = apps.body.connected_apps.find((a: any) => a.client_id === provider.info!.client_id);
      assert.equal(app.client_name, 'Test Agent');
      assert.ok(app.scopes.includes('sheets:write'));
      // Stored hashed: no token appears in the tables.
      const rows = JSON.stringify(await s.c.db.selectFrom('oauth_tokens').selectAll().execute());
      assert.equal(rows.includes(provider.saved!.access_token), false);
      assert.equal(rows.includes(provider.saved!.refresh_token!), false);
    });

    it("an access token counts in the account's rate limit, together with its API keys", async () => {
      const bob = await s.user('free');
      // Tokens by hand, not through the SDK client: after connecting, the SDK opens its GET /mcp stream
      // without awaiting it, and that request (an authenticated one, so counted) could land between a and b.
      const { client_id } = await register(s);
      const { verifier, challenge } = pkce();
      const url = authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' });
      const { code } = await approve(s, url, bob.key);
      const issued = await token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const remaining = async (key: string) => Number((await s.req('GET', '/v1/todos', { key })).headers.get('ratelimit-remaining'));
      const a = await remaining(bob.key);
      const b = await remaining(issued.body.access_token);
      const c = await remaining(bob.key);
      assert.deepEqual([b, c], [a - 1, a - 2]);
    });

    it('a client ID metadata document (https, through the SSRF guard) identifies the client; it is cached', async () => {
      const provider = new MemoryProvider(REDIRECT, doc.url);
      let page: Awaited<ReturnType<typeof openConsent>> | undefined;
      const client = await connectWithOAuth(s, provider, async (url) => {
        page = await openConsent(String(url));
        return (await approve(s, url, alice.key)).code;
      });
      assert.equal(provider.info?.client_id, doc.url);
      assert.match(page!.html, /Metadata Agent/);
      assert.match(page!.html, /127\.0\.0\.1:7777/);
      assert.ok((await client.listTools()).tools.length > 10);
      await client.close();
      assert.equal(doc.fetches(), 1, 'fetched once, then served from the cache');
    });

    it('refuses a metadata document that names another client_id or is larger than 5 KB', async () => {
      const base = new URL(doc.url).origin;
      // One text for every failure (test/api/oauth-metadata-fetch.test.ts): the cause is not told to the asker.
      for (const [p, why] of [
        ['/other.json', /could not be used/],
        ['/big.json', /could not be used/],
      ] as const) {
        const { challenge } = pkce();
        const r = await fetch(authorizeUrl(s, { response_type: 'code', client_id: `${base}${p}`, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
        assert.equal(r.status, 400);
        assert.match(await r.text(), why);
      }
    });

    it('refuses missing or plain PKCE, a foreign redirect_uri, a wrong resource; Deny returns access_denied', async () => {
      const { client_id } = await register(s);
      const { challenge } = pkce();
      const base = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st8' };
      const redirectError = async (params: Record<string, string | undefined>) => {
        const r = await fetch(authorizeUrl(s, params), { redirect: 'manual' });
        assert.equal(r.status, 302);
        const loc = new URL(r.headers.get('location')!);
        assert.equal(loc.origin + loc.pathname, REDIRECT);
        assert.equal(loc.searchParams.get('state'), 'st8');
        return loc.searchParams.get('error');
      };
      assert.equal(await redirectError({ ...base, code_challenge: undefined, code_challenge_method: undefined }), 'invalid_request');
      assert.equal(await redirectError({ ...base, code_challenge_method: 'plain' }), 'invalid_request');
      assert.equal(await redirectError({ ...base, resource: 'https://elsewhere.example/mcp' }), 'invalid_target');
      assert.equal(await redirectError({ ...base, scope: 'sheets:read admin' }), 'invalid_scope');
      const foreign = await fetch(authorizeUrl(s, { ...base, redirect_uri: 'https://attacker.example/cb' }), { redirect: 'manual' });
      assert.equal(foreign.status, 400, 'never redirected to an unregistered URI');
      assert.equal(foreign.headers.get('location'), null);
      const unknown = await fetch(authorizeUrl(s, { ...base, client_id: 'mcpc_nope' }), { redirect: 'manual' });
      assert.equal(unknown.status, 400);
      // Loopback redirects may use another port (RFC 8252).
      const otherPort = await openConsent(String(authorizeUrl(s, { ...base, redirect_uri: 'http://127.0.0.1:9999/callback' })));
      assert.equal(otherPort.res.status, 200);
      const page = await openConsent(String(authorizeUrl(s, base)));
      assert.equal(page.res.headers.get('x-frame-options'), 'DENY');
      const csp = page.res.headers.get('content-security-policy')!;
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /form-action/);
      assert.match(page.html, /Manual Client/);
      assert.match(page.html, /<label for="api_key">API key<\/label>/);
      const denied = await submitConsent(s, page, { decision: 'deny' });
      assert.equal(denied.location?.searchParams.get('error'), 'access_denied');
      assert.equal(denied.location?.searchParams.get('state'), 'st8');
      const noCsrf = await submitConsent(s, page, { key: alice.key, csrf: 'forged' });
      assert.equal(noCsrf.res.status, 403);
      const badKey = await submitConsent(s, page, { key: `sk_${'x'.repeat(43)}` });
      assert.equal(badKey.res.status, 401);
      assert.match(badKey.text, /Unknown API key/);
    });

    it('codes are single-use with the right verifier; a replay revokes what the code issued', async () => {
      const { client_id } = await register(s);
      const { verifier, challenge } = pkce();
      const url = authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' });
      const { code } = await approve(s, url, alice.key);
      const exchange = (v: string) => token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: v });
      const wrong = await exchange(pkce().verifier);
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.error, 'invalid_grant');
      const first = await exchange(verifier);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal((await mcpStatus(s, first.body.access_token)).status, 200);
      // A replay without the verifier (or with another redirect_uri) is refused and revokes nothing.
      const forged = await exchange(pkce().verifier);
      assert.equal(forged.body.error, 'invalid_grant');
      const otherUri = await token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: 'http://127.0.0.1:7777/other', code_verifier: verifier });
      assert.equal(otherUri.body.error, 'invalid_grant');
      assert.equal((await mcpStatus(s, first.body.access_token)).status, 200, 'a replay failing PKCE does not revoke');
      const replay = await exchange(verifier);
      assert.equal(replay.body.error, 'invalid_grant');
      assert.equal((await mcpStatus(s, first.body.access_token)).status, 401, 'the replay revoked the first tokens');
      const unknownClient = await token(s, { grant_type: 'authorization_code', code, client_id: 'mcpc_gone', redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(unknownClient.status, 401);
      assert.equal(unknownClient.body.error, 'invalid_client');
    });

    it('the same code exchanged five times at once: one exchange wins, and the replays revoke its tokens', async () => {
      const { client_id } = await register(s);
      const { verifier, challenge } = pkce();
      const { code } = await approve(s, authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' }), alice.key);
      const results = await Promise.all(Array.from({ length: 5 }, () => token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: verifier })));
      const won = results.filter((r) => r.status === 200);
      assert.equal(won.length, 1, JSON.stringify(results.map((r) => r.body)));
      assert.ok(results.filter((r) => r.status !== 200).every((r) => r.body.error === 'invalid_grant'));
      assert.equal((await mcpStatus(s, won[0].body.access_token)).status, 401);
    });

    it('refresh tokens rotate; a replayed one revokes the grant; access tokens expire after an hour', async () => {
      const provider = new MemoryProvider();
      const client = await connectWithOAuth(s, provider, async (url) => (await approve(s, url, alice.key)).code);
      await client.close();
      const first = provider.saved!;
      clock.advance(3600_000);
      const expired = await mcpStatus(s, first.access_token);
      assert.equal(expired.status, 401);
      assert.match(expired.challenge!, /resource_metadata=/);
      // The SDK refreshes on the 401 by itself.
      const again = await connectWithTokens(s, provider);
      assert.ok((await again.listTools()).tools.length > 0);
      await again.close();
      const second = provider.saved!;
      assert.notEqual(second.refresh_token, first.refresh_token);
      const client_id = String(provider.info!.client_id);
      const replay = await token(s, { grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id });
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
      assert.equal((await mcpStatus(s, second.access_token)).status, 401, 'the whole grant is revoked');
      assert.equal((await token(s, { grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id })).body.error, 'invalid_grant');
    });

    it("a refresh asking for fewer scopes than the grant is refused (tokens carry the grant's scopes)", async () => {
      const { client_id } = await register(s);
      const { verifier, challenge } = pkce();
      const url = authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' });
      const { code } = await approve(s, url, alice.key, ['sheets:read', 'sheets:write']);
      const issued = await token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const narrower = await token(s, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token, client_id, scope: 'sheets:read' });
      assert.equal(narrower.status, 400);
      assert.equal(narrower.body.error, 'invalid_scope');
      // The refused refresh did not use up the token: the same scopes (in any order) still refresh.
      const same = await token(s, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token, client_id, scope: 'sheets:write sheets:read' });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.equal(same.body.scope, 'sheets:write sheets:read');
      assert.equal((await s.req('POST', '/v1/sheets', { key: same.body.access_token, body: { title: 'still writable' } })).status, 200);
    });

    it('revoking a connected app (REST or RFC 7009) makes the next MCP call 401', async () => {
      const p1 = new MemoryProvider();
      (await connectWithOAuth(s, p1, async (url) => (await approve(s, url, alice.key)).code)).close();
      const apps = (await s.req('GET', '/v1/connected-apps', { key: alice.key })).body.connected_apps;
      const grant = apps.find((a: any) => a.client_id === p1.info!.client_id);
      const mallory = await s.user('pro');
      assert.equal((await s.req('DELETE', `/v1/connected-apps/${grant.id}`, { key: mallory.key })).body.code, 'forbidden');
      const del = await s.req('DELETE', `/v1/connected-apps/${grant.id}`, { key: alice.key });
      assert.deepEqual(del.body, { success: true, id: grant.id, status: 'revoked' });
      assert.equal((await mcpStatus(s, p1.saved!.access_token)).status, 401);
      const listed = (await s.req('GET', '/v1/connected-apps', { key: alice.key })).body.connected_apps;
      assert.equal(
        listed.some((a: any) => a.id === grant.id),
        false,
      );

      const p2 = new MemoryProvider();
      (await connectWithOAuth(s, p2, async (url) => (await approve(s, url, alice.key)).code)).close();
      const rv = await fetch(`${s.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${p2.saved!.refresh_token}` });
      assert.equal(rv.status, 200);
      assert.equal((await mcpStatus(s, p2.saved!.access_token)).status, 401);
    });

    it('narrowed scopes narrow tools/list and refuse calls; the token never exceeds the approving key', async () => {
      const provider = new MemoryProvider();
      const client = await connectWithOAuth(s, provider, async (url) => (await approve(s, url, alice.key, ['sheets:read', 'todos:read'])).code);
      assert.equal(provider.saved?.scope, 'sheets:read todos:read');
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('list_sheets') && names.includes('list_todos'));
      assert.ok(!names.includes('create_sheet') && !names.includes('save_session'));
      const refused = await client.callTool({ name: 'create_sheet', arguments: { title: 'no' } });
      assert.equal(refused.isError, true);
      assert.equal(JSON.parse((refused.content as any)[0].text).required_scope, 'sheets:write');
      await client.close();
      const rest = await s.req('POST', '/v1/sheets', { key: provider.saved!.access_token, body: { title: 'no' } });
      assert.equal(rest.status, 403);
      assert.equal(rest.body.required_scope, 'sheets:write');

      const narrowKey = (await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'r', scopes: ['sheets:read'] } })).body.api_key;
      const { client_id } = await register(s);
      const page = await openConsent(String(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
      const beyond = await submitConsent(s, page, { key: narrowKey, scopes: ['sheets:read', 'sheets:write'] });
      assert.equal(beyond.res.status, 401);
      assert.match(beyond.text, /lacks sheets:write/);
    });

    it('registrations never used are purged after 30 days; used ones stay', async () => {
      const unused = await register(s, REDIRECT, 'Never Used');
      const used = new MemoryProvider(REDIRECT, undefined, 'Used');
      (await connectWithOAuth(s, used, async (url) => (await approve(s, url, alice.key)).code)).close();
      clock.advance(31 * 86_400_000);
      await register(s); // registering runs the purge
      const page = (id: string) =>
        fetch(authorizeUrl(s, { response_type: 'code', client_id: id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
      assert.equal((await page(unused.client_id)).status, 400);
      assert.equal((await page(String(used.info!.client_id))).status, 200);
    });

    it('dynamic registration checks redirect URIs and is limited per address', async () => {
      const bad = await fetch(`${s.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }) });
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as any).error, 'invalid_redirect_uri');
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const r = await fetch(`${s.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
        statuses.push(r.status);
        await r.text();
      }
      assert.equal(statuses.at(-1), 429);
    });
  });
}

for (const dialect of dialects()) {
  describe(`OAuth consent form limits and metadata client races [${dialect}]`, () => {
    let doc: Awaited<ReturnType<typeof serveMetadataDocument>>;
    const { s } = useServer(dialect, { env: { ...webhookEnv(), AUTH_FAILURE_LIMIT: '3' } });
    before(async () => {
      doc = await serveMetadataDocument();
    });
    after(async () => {
      await doc.close();
    });

    it('concurrent authorization requests for one new metadata client_id all succeed', async () => {
      const url = String(authorizeUrl(s, { response_type: 'code', client_id: doc.url, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
      const pages = await Promise.all(Array.from({ length: 8 }, () => openConsent(url)));
      assert.deepEqual(
        pages.map((p) => p.res.status),
        Array(8).fill(200),
        pages.map((p) => p.html.slice(0, 200)).join('\n'),
      );
      const rows = await s.c.db.selectFrom('oauth_clients').selectAll().where('id', '=', doc.url).execute();
      assert.equal(rows.length, 1);
    });

    it('wrong API keys on the consent form count as failed authentications: over the limit, 429', async () => {
      const { client_id } = await register(s);
      const page = await openConsent(String(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof submitConsent>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await submitConsent(s, page, { key: `sk_${String(i).repeat(43)}` });
        statuses.push(last.res.status);
      }
      assert.deepEqual(statuses.slice(0, 2), [401, 401]);
      assert.equal(statuses.at(-1), 429);
      assert.ok(Number(last!.res.headers.get('retry-after')) > 0);
    });
  });
}
