import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { REDIRECT, authorizeUrl, mcpStatus, pkce, register } from '../oauth-helpers.js';

/** Behind a TLS-terminating proxy the issuer and resource are PUBLIC_URL's, not the address the request reached. */
for (const dialect of dialects()) {
  describe(`OAuth with PUBLIC_URL [${dialect}]`, () => {
    const PUBLIC = 'https://sheets.example.com';
    const { s } = useServer(dialect, { env: { PUBLIC_URL: `${PUBLIC}/` } });

    it('names PUBLIC_URL as issuer, resource and every endpoint', async () => {
      const prm = (await s.req('GET', '/.well-known/oauth-protected-resource/mcp')).body;
      assert.equal(prm.resource, `${PUBLIC}/mcp`);
      assert.deepEqual(prm.authorization_servers, [PUBLIC]);
      const as = (await s.req('GET', '/.well-known/oauth-authorization-server')).body;
      assert.equal(as.issuer, PUBLIC);
      assert.equal(as.authorization_endpoint, `${PUBLIC}/oauth/authorize`);
      assert.equal(as.token_endpoint, `${PUBLIC}/oauth/token`);
      assert.equal(as.revocation_endpoint, `${PUBLIC}/oauth/revoke`);
      assert.equal(as.registration_endpoint, `${PUBLIC}/oauth/register`);
      assert.deepEqual(as.response_types_supported, ['code']);
      for (const scope of ['sheets:read', 'sheets:write', 'keys:manage', 'exports:create']) assert.ok(as.scopes_supported.includes(scope), scope);
      const r = await mcpStatus(s, 'nothing');
      assert.equal(r.status, 401);
      assert.equal(r.challenge, `Bearer resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource/mcp"`);
    });

    it('accepts PUBLIC_URL/mcp as resource and refuses the address the request reached', async () => {
      const { client_id } = await register(s);
      const base = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 's1' };
      const refused = await fetch(authorizeUrl(s, { ...base, resource: `${s.url}/mcp` }), { redirect: 'manual' });
      assert.equal(refused.status, 302);
      assert.equal(new URL(refused.headers.get('location')!).searchParams.get('error'), 'invalid_target');
      const accepted = await fetch(authorizeUrl(s, { ...base, resource: `${PUBLIC}/mcp` }), { redirect: 'manual' });
      assert.equal(accepted.status, 200, 'the consent page');
      assert.match(await accepted.text(), /API key/);
    });
  });
}
