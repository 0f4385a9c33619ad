import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { REDIRECT, authorizeUrl, openConsent, pkce, register, submitConsent, token } from '../oauth-helpers.js';

/**
 * Issue 17, the consent page with a console session. The console cookie is SameSite=Strict, so the
 * page opened from claude.ai (cross-site) shows the API key field even to a signed-in person, while
 * the form's POST (same-site) carries the cookie. A typed key must decide whose grant it is and
 * bound its scopes; the session counts only when no key was typed.
 */
for (const dialect of dialects()) {
  describe(`consent form: a typed API key wins over the console session [${dialect}]`, () => {
    let bNarrowKey: string;
    let aCookie: string;
    let clientId: string;
    const {
      s,
      users: { a, b },
    } = useServer(dialect, { users: { a: 'pro', b: 'pro' } });
    before(async () => {
      assert.equal((await s.req('POST', '/v1/sheets', { key: a.key, body: { title: "A's sheet" } })).status, 200);
      assert.equal((await s.req('POST', '/v1/sheets', { key: b.key, body: { title: "B's sheet" } })).status, 200);
      const narrow = await s.req('POST', '/v1/api-keys', { key: b.key, body: { name: 'read only', scopes: ['sheets:read'] } });
      assert.equal(narrow.status, 200, JSON.stringify(narrow.body));
      bNarrowKey = narrow.body.api_key;
      const signIn = await s.req('POST', '/console/session', { body: { api_key: a.key }, headers: { 'x-console': '1' } });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      aCookie = signIn.headers.get('set-cookie')!.split(';')[0];
      assert.match(aCookie, /^sw_console=/);
      clientId = (await register(s)).client_id;
    });

    /** The consent page as opened from another site: no console cookie on the GET. */
    async function crossSitePage(cookie = '') {
      const { verifier, challenge } = pkce();
      const page = await openConsent(
        String(authorizeUrl(s, { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'sheets:read sheets:write' })),
        cookie,
      );
      assert.equal(page.res.status, 200, page.html);
      return { page, verifier };
    }

    async function exchange(code: string, verifier: string) {
      const t = await token(s, { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(t.status, 200, JSON.stringify(t.body));
      return t.body as { access_token: string; scope: string };
    }

    const sheetTitles = async (bearer: string) => (await s.req('GET', '/v1/sheets', { key: bearer })).body.sheets.map((x: { title: string }) => x.title);
    const appsOf = async (key: string) => (await s.req('GET', '/v1/connected-apps', { key })).body.connected_apps as { client_id: string; scopes: string[] }[];

    it("B's typed key with A's cookie: the grant is B's and never exceeds B's key", async () => {
      const { page, verifier } = await crossSitePage();
      assert.match(page.html, /name="api_key"/, 'the cross-site page asks for a key');

      // A's session has full access; B's key only sheets:read. The key is the approving credential.
      const beyond = await submitConsent(s, page, { key: bNarrowKey, cookie: aCookie, scopes: ['sheets:read', 'sheets:write'] });
      assert.equal(beyond.res.status, 401, `expected the form again, got ${beyond.res.status} ${beyond.location}`);
      assert.match(beyond.text, /lacks sheets:write/);

      const allowed = await submitConsent(s, page, { key: bNarrowKey, cookie: aCookie, scopes: ['sheets:read'] });
      assert.equal(allowed.res.status, 302, allowed.text);
      const tokens = await exchange(allowed.location!.searchParams.get('code')!, verifier);
      assert.equal(tokens.scope, 'sheets:read');
      assert.deepEqual(await sheetTitles(tokens.access_token), ["B's sheet"], "the token reads B's account, not A's");
      const write = await s.req('POST', '/v1/sheets', { key: tokens.access_token, body: { title: 'no' } });
      assert.equal(write.status, 403);
      assert.equal(write.body.required_scope, 'sheets:write');
      assert.ok(
        (await appsOf(b.key)).some((g) => g.client_id === clientId),
        'the grant is listed under B',
      );
      assert.equal(
        (await appsOf(a.key)).some((g) => g.client_id === clientId),
        false,
        'and not under A',
      );
    });

    it("a wrong typed key with A's cookie is refused, not approved as A", async () => {
      const { page } = await crossSitePage();
      const r = await submitConsent(s, page, { key: 'sk_wrong', cookie: aCookie, scopes: ['sheets:read'] });
      assert.equal(r.res.status, 401, `expected the form again, got ${r.res.status} ${r.location}`);
      assert.match(r.text, /Enter a valid API key/);
    });

    it("with no key typed, A's console session approves as A", async () => {
      const { page, verifier } = await crossSitePage(aCookie);
      assert.match(page.html, /Signed in to the console as/);
      const r = await submitConsent(s, page, { cookie: aCookie, scopes: ['sheets:read', 'sheets:write'] });
      assert.equal(r.res.status, 302, r.text);
      const tokens = await exchange(r.location!.searchParams.get('code')!, verifier);
      assert.equal(tokens.scope, 'sheets:read sheets:write');
      assert.deepEqual(await sheetTitles(tokens.access_token), ["A's sheet"]);
    });
  });
}
