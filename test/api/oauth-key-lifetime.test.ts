import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock } from '../../src/clock.js';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { REDIRECT, authorizeUrl, mcpStatus, openConsent, pkce, register, submitConsent, token } from '../oauth-helpers.js';

/**
 * Credentials never outlive the credential that made them: an OAuth grant ends with the API key that
 * approved it (typed on the consent page, or behind the console session used there), and a key created
 * by an expiring credential (an expiring key, an OAuth access token) expires no later than it.
 */
for (const dialect of dialects()) {
  describe(`grants and keys end with the credential that made them [${dialect}]`, () => {
    const clock = manualClock(new Date());
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const inMs = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

    async function newKey(body: Record<string, unknown> = {}, issuer = alice.key) {
      const r = await s.req('POST', '/v1/api-keys', { key: issuer, body: { name: 'k', ...body } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { api_key: string; id: string; expires_at: string | null };
    }

    /** Consent (with a typed key, or a console cookie and no key), then the code exchange. */
    async function grant(by: { key?: string; cookie?: string }, scope = 'sheets:read sheets:write') {
      const { client_id } = await register(s);
      const { verifier, challenge } = pkce();
      const page = await openConsent(String(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope })), by.cookie);
      assert.equal(page.res.status, 200, page.html);
      const r = await submitConsent(s, page, by);
      assert.equal(r.res.status, 302, r.text);
      const code = r.location!.searchParams.get('code')!;
      assert.ok(code, `redirected with ${r.location}`);
      const t = await token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(t.status, 200, JSON.stringify(t.body));
      return { client_id, access: t.body.access_token as string, refresh: t.body.refresh_token as string };
    }

    const v1Status = async (bearer: string) => (await s.req('GET', '/v1/sheets', { key: bearer })).status;
    const refresh = (g: { client_id: string; refresh: string }) => token(s, { grant_type: 'refresh_token', refresh_token: g.refresh, client_id: g.client_id });

    async function assertWorks(g: { access: string }) {
      assert.equal((await mcpStatus(s, g.access)).status, 200);
      assert.equal(await v1Status(g.access), 200);
    }

    async function assertEnded(g: { client_id: string; access: string; refresh: string }, why: RegExp) {
      const mcp = await mcpStatus(s, g.access);
      assert.equal(mcp.status, 401);
      assert.match(mcp.challenge!, /resource_metadata=/);
      const v1 = await s.req('GET', '/v1/sheets', { key: g.access });
      assertError(v1, 401, 'unauthorized', why);
      const r = await refresh(g);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error, 'invalid_grant');
      assert.match(r.body.error_description, why);
    }

    it('disabling the key typed on the consent page ends the grant: 401 on /mcp and /v1, refresh invalid_grant', async () => {
      const approver = await newKey();
      const other = await newKey();
      const g = await grant({ key: approver.api_key });
      const bystander = await grant({ key: other.api_key });
      await assertWorks(g);
      const row = await s.c.db.selectFrom('oauth_grants').select('approved_by_key').where('client_id', '=', g.client_id).executeTakeFirstOrThrow();
      assert.equal(row.approved_by_key, approver.id);

      assert.equal((await s.req('DELETE', `/v1/api-keys/${approver.id}`, { key: alice.key })).status, 200);
      await assertEnded(g, /approved this access has been disabled/);
      // Another key of the same account vouches for its own grant only.
      await assertWorks(bystander);
      assert.equal((await refresh(bystander)).status, 200);
    });

    it('a code approved by a key disabled before the exchange is refused', async () => {
      const approver = await newKey();
      const { client_id } = await register(s);
      const { verifier, challenge } = pkce();
      const page = await openConsent(String(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'sheets:read' })));
      const r = await submitConsent(s, page, { key: approver.api_key });
      assert.equal(r.res.status, 302, r.text);
      await s.req('DELETE', `/v1/api-keys/${approver.id}`, { key: alice.key });
      const t = await token(s, { grant_type: 'authorization_code', code: r.location!.searchParams.get('code')!, client_id, redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(t.status, 400);
      assert.equal(t.body.error, 'invalid_grant');
      assert.match(t.body.error_description, /disabled/);
    });

    it('the approving key expiring ends the grant; refresh cannot carry it on', async () => {
      const approver = await newKey({ expires_at: inMs(90 * 60_000) });
      const g = await grant({ key: approver.api_key });
      clock.advance(3600_000 + 1000);
      // The access token has expired by now; refreshing still works while the key lives.
      const renewed = await refresh(g);
      assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
      const g2 = { client_id: g.client_id, access: renewed.body.access_token as string, refresh: renewed.body.refresh_token as string };
      await assertWorks(g2);
      // The key ends 30 minutes later, well inside the new access token's hour.
      clock.advance(30 * 60_000);
      await assertEnded(g2, /approved this access has expired/);
    });

    it('approved with a console session: disabling the key behind the session ends the grant', async () => {
      const sessionKey = await newKey();
      const signIn = await s.req('POST', '/console/session', { body: { api_key: sessionKey.api_key }, headers: { 'x-console': '1' } });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const g = await grant({ cookie });
      await assertWorks(g);
      const row = await s.c.db.selectFrom('oauth_grants').select('approved_by_key').where('client_id', '=', g.client_id).executeTakeFirstOrThrow();
      assert.equal(row.approved_by_key, sessionKey.id);

      assert.equal((await s.req('DELETE', `/v1/api-keys/${sessionKey.id}`, { key: alice.key })).status, 200);
      await assertEnded(g, /approved this access has been disabled/);
      const apps = (await s.req('GET', '/v1/connected-apps', { key: alice.key })).body.connected_apps;
      assert.ok(!apps.some((a: { client_id: string }) => a.client_id === g.client_id), 'an ended grant is no longer listed as connected');
    });

    it('a console session opened with an expiring key makes keys that end with it', async () => {
      const keyExpiry = inMs(5 * 86_400_000);
      const sessionKey = await newKey({ expires_at: keyExpiry });
      const signIn = await s.req('POST', '/console/session', { body: { api_key: sessionKey.api_key }, headers: { 'x-console': '1' } });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const made = await s.req('POST', '/v1/api-keys', { headers: { cookie, 'x-console': '1' }, body: { name: 'from the console' } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal(made.body.expires_at, keyExpiry);
      const later = await s.req('POST', '/v1/api-keys', { headers: { cookie, 'x-console': '1' }, body: { name: 'too late', expires_at: inMs(6 * 86_400_000) } });
      assertError(later, 400, 'invalid_request', /expires_at/);
    });

    it('tokens live 1 h (access) and 30 days (refresh); a refresh token used after that is invalid_grant', async () => {
      const g = await grant({ key: alice.key });
      clock.advance(3600_000 + 1000);
      assertError(await s.req('GET', '/v1/sheets', { key: g.access }), 401, 'unauthorized', /expired/);
      const fresh = await refresh(g);
      assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
      assert.equal(fresh.body.expires_in, 3600);
      const next = { ...g, access: fresh.body.access_token as string, refresh: fresh.body.refresh_token as string };
      clock.advance(30 * 86_400_000 + 1000);
      const late = await refresh(next);
      assert.equal(late.status, 400, JSON.stringify(late.body));
      assert.equal(late.body.error, 'invalid_grant');
    });

    it('a grant from before migration 016 (no approving key recorded) keeps working', async () => {
      const approver = await newKey();
      const g = await grant({ key: approver.api_key });
      await s.c.db.updateTable('oauth_grants').set({ approved_by_key: null }).where('client_id', '=', g.client_id).execute();
      await s.req('DELETE', `/v1/api-keys/${approver.id}`, { key: alice.key });
      await assertWorks(g);
      assert.equal((await refresh(g)).status, 200);
    });

    it('an expiring keys:manage key: new keys default to its expiry and may not outlive it', async () => {
      const issuerExpiry = inMs(7 * 86_400_000);
      const issuer = await newKey({ scopes: ['keys:manage', 'sheets:read'], expires_at: issuerExpiry });
      const child = await newKey({ scopes: ['sheets:read'] }, issuer.api_key);
      assert.equal(child.expires_at, issuerExpiry);
      const earlier = await newKey({ scopes: ['sheets:read'], expires_at: inMs(86_400_000) }, issuer.api_key);
      assert.equal(earlier.expires_at, inMs(86_400_000));
      assert.equal((await newKey({ scopes: ['sheets:read'], expires_at: issuerExpiry }, issuer.api_key)).expires_at, issuerExpiry);

      const post = (body: Record<string, unknown>) => s.req('POST', '/v1/api-keys', { key: issuer.api_key, body: { name: 'k', scopes: ['sheets:read'], ...body } });
      assertError(await post({ expires_at: inMs(8 * 86_400_000) }), 400, 'invalid_request', /expires_at must not be later than/);
      assertError(await post({ expires_at: null }), 400, 'invalid_request', /expires_at/);
      // A key that never expires may still create keys that never expire.
      assert.equal((await newKey({ scopes: ['sheets:read'] })).expires_at, null);

      clock.advance(7 * 86_400_000);
      assert.equal(await v1Status(child.api_key), 401, 'the child key expired with its issuer');
    });

    it('an OAuth access token with keys:manage creates keys that end no later than the token', async () => {
      const g = await grant({ key: alice.key }, 'keys:manage sheets:read');
      const tokenExpiry = Date.parse(inMs(3600_000));
      const minted = await newKey({ scopes: ['sheets:read'] }, g.access);
      assert.ok(minted.expires_at, 'the key has an expiry');
      assert.ok(Date.parse(minted.expires_at) <= tokenExpiry, `${minted.expires_at} is after the token's expiry`);
      assert.ok(Date.parse(minted.expires_at) > clock.now().getTime());
      assertError(await s.req('POST', '/v1/api-keys', { key: g.access, body: { name: 'k', scopes: ['sheets:read'], expires_at: inMs(2 * 3600_000) } }), 400, 'invalid_request', /expires_at/);
      assertError(await s.req('POST', '/v1/api-keys', { key: g.access, body: { name: 'k', scopes: ['sheets:read'], expires_at: null } }), 400, 'invalid_request', /expires_at/);

      // Revoking the grant does not leave the key working past the token's hour.
      const apps = (await s.req('GET', '/v1/connected-apps', { key: alice.key })).body.connected_apps;
      const id = apps.find((a: { client_id: string }) => a.client_id === g.client_id).id;
      assert.equal((await s.req('DELETE', `/v1/connected-apps/${id}`, { key: alice.key })).status, 200);
      clock.advance(3600_000);
      assert.equal(await v1Status(minted.api_key), 401);
    });

    /** Audit #31, finding 8: a key made with an access token ends with its grant, not an hour later. */
    describe('keys made under an OAuth grant end with it', () => {
      const grantIdOf = async (client_id: string) => (await s.c.db.selectFrom('oauth_grants').select('id').where('client_id', '=', client_id).executeTakeFirstOrThrow()).id;

      it('revoking the grant (Connected apps, or /oauth/revoke) ends the key and the keys it made, at once', async () => {
        const g = await grant({ key: alice.key }, 'keys:manage sheets:read');
        const minted = await newKey({ scopes: ['keys:manage', 'sheets:read'] }, g.access);
        const grandchild = await newKey({ scopes: ['sheets:read'] }, minted.api_key);
        const row = await s.c.db.selectFrom('api_keys').select('issued_by_grant').where('id', '=', grandchild.id).executeTakeFirstOrThrow();
        assert.equal(row.issued_by_grant, await grantIdOf(g.client_id), 'a key made by a grant-made key is linked to the same grant');
        const plain = await newKey({ scopes: ['sheets:read'] });
        assert.equal(await v1Status(minted.api_key), 200);
        assert.equal(await v1Status(grandchild.api_key), 200);

        const id = await grantIdOf(g.client_id);
        assert.equal((await s.req('DELETE', `/v1/connected-apps/${id}`, { key: alice.key })).status, 200);
        for (const k of [minted, grandchild]) {
          assertError(await s.req('GET', '/v1/sheets', { key: k.api_key }), 401, 'unauthorized', /connected app whose access created this API key was disconnected/);
          assert.equal((await mcpStatus(s, k.api_key)).status, 401);
        }
        assert.equal(await v1Status(plain.api_key), 200, 'keys outside the grant keep working');

        const g2 = await grant({ key: alice.key }, 'keys:manage sheets:read');
        const viaRevoke = await newKey({ scopes: ['sheets:read'] }, g2.access);
        assert.equal(await v1Status(viaRevoke.api_key), 200);
        const revoked = await fetch(`${s.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: g2.refresh }).toString() });
        assert.equal(revoked.status, 200);
        assert.equal(await v1Status(viaRevoke.api_key), 401);
      });

      it("disabling the grant's approving key ends the keys made under the grant", async () => {
        const approver = await newKey();
        const g = await grant({ key: approver.api_key }, 'keys:manage sheets:read');
        const minted = await newKey({ scopes: ['sheets:read'] }, g.access);
        assert.equal(await v1Status(minted.api_key), 200);
        assert.equal((await s.req('DELETE', `/v1/api-keys/${approver.id}`, { key: alice.key })).status, 200);
        assertError(await s.req('GET', '/v1/sheets', { key: minted.api_key }), 401, 'unauthorized', /approved this access has been disabled/);
      });

      it('keys from before migration 025 (no grant recorded) keep working until they expire', async () => {
        const g = await grant({ key: alice.key }, 'keys:manage sheets:read');
        const minted = await newKey({ scopes: ['sheets:read'] }, g.access);
        await s.c.db.updateTable('api_keys').set({ issued_by_grant: null }).where('id', '=', minted.id).execute();
        await s.req('DELETE', `/v1/connected-apps/${await grantIdOf(g.client_id)}`, { key: alice.key });
        assert.equal(await v1Status(minted.api_key), 200);
      });
    });

    it('a token approved by an expiring key mints keys that end with that key, if sooner than the token', async () => {
      const approver = await newKey({ expires_at: inMs(600_000) });
      const g = await grant({ key: approver.api_key }, 'keys:manage sheets:read');
      const minted = await newKey({ scopes: ['sheets:read'] }, g.access);
      assert.equal(minted.expires_at, approver.expires_at);
    });
  });
}
