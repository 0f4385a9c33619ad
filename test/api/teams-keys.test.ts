import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, type Res } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { REDIRECT, authorizeUrl, openConsent, pkce, register, submitConsent, token } from '../oauth-helpers.js';
import { makeTeam } from '../teams-helpers.js';

/**
 * Issue 33.5: an API key restricted to one workspace (workspace_id at creation) sees and writes only
 * there, its scopes and its maker's role still apply; OAuth consent picks the workspace the app reaches.
 */
for (const dialect of dialects()) {
  describe(`teams: keys and OAuth restricted to one workspace [${dialect}]`, () => {
    const { s, users, beforeClose } = useServer(dialect, { users: { alice: 'pro', bob: 'pro', carol: 'pro' } });
    const { alice, bob, carol } = users;
    let team = '';
    let teamEntry = '';
    let homeEntry = '';
    const personal = (u: TestUser) => `wsp_${u.userId.slice(4)}`;
    const call = (key: string, method: string, path: string, body?: unknown) => s.req(method, path, { key, body });
    async function newKey(by: string, body: Record<string, unknown>) {
      const r = await call(by, 'POST', '/v1/api-keys', { name: 'restricted', ...body });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { api_key: string; id: string; workspace_id: string | null };
    }
    const solutionIds = async (key: string, query = '') => {
      const r = await call(key, 'GET', `/v1/knowledge?type=solutions${query}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return (r.body.solutions as { id: string }[]).map((x) => x.id).sort();
    };
    /** 403 forbidden because the credential is restricted to another workspace (no role named: it is not a role rule). */
    function assertBeyondKey(r: Res, restrictedTo: string) {
      assertError(r, 403, 'forbidden', new RegExp(`restricted to workspace ${restrictedTo}`));
    }
    /** A 403 that names what was missing (`required_scope` or `required_role`). */
    function assertRefused(r: Res, code: string, field: 'required_scope' | 'required_role', value: string, mentions?: RegExp) {
      assert.equal(r.status, 403, JSON.stringify(r.body));
      assert.deepEqual(Object.keys(r.body).sort(), ['code', 'error', field, 'success']);
      assert.equal(r.body.code, code);
      assert.equal(r.body[field], value);
      if (mentions) assert.match(r.body.error, mentions);
    }

    before(async () => {
      team = await makeTeam(s, alice, 'Key team', [[bob, 'editor']]);
      const save = async (workspace_id?: string) => {
        const r = await call(alice.key, 'POST', '/v1/knowledge?type=solutions', { title: 'Pool exhausted', error: 'TimeoutError', content: 'Raise max', workspace_id });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return r.body.id as string;
      };
      teamEntry = await save(team);
      homeEntry = await save();
    });

    it('a key restricted to the team lists the team by default, writes there, and cannot reach the personal workspace', async () => {
      const k = await newKey(alice.key, { workspace_id: team });
      assert.equal(k.workspace_id, team);
      const listed = (await call(alice.key, 'GET', '/v1/api-keys')).body.api_keys.find((x: any) => x.id === k.id);
      assert.equal(listed.workspace_id, team, 'the key view shows its workspace');
      assert.equal((await call(alice.key, 'GET', '/v1/api-keys')).body.api_keys.find((x: any) => x.id !== k.id).workspace_id, null, 'unrestricted keys show null');

      assert.deepEqual(await solutionIds(k.api_key), [teamEntry], 'lists default to the key workspace');
      assert.deepEqual(await solutionIds(k.api_key, `&workspace_id=${team}`), [teamEntry]);
      assert.equal((await call(k.api_key, 'GET', `/v1/knowledge/${teamEntry}`)).status, 200);
      assertBeyondKey(await call(k.api_key, 'GET', `/v1/knowledge/${homeEntry}`), team);
      assertBeyondKey(await call(k.api_key, 'GET', `/v1/knowledge?type=solutions&workspace_id=${personal(alice)}`), team);
      assertBeyondKey(await call(k.api_key, 'PUT', `/v1/knowledge/${homeEntry}`, { title: 'changed' }), team);
      assert.equal((await call(alice.key, 'GET', `/v1/knowledge/${homeEntry}`)).body.solution.title, 'Pool exhausted', 'nothing written');

      // Creates without workspace_id land in the key's workspace; naming another is refused.
      const made = await call(k.api_key, 'POST', '/v1/knowledge?type=snippets', { title: 'Team snippet', content: 'x()' });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal(made.body.snippet.workspace_id, team);
      assertBeyondKey(await call(k.api_key, 'POST', '/v1/knowledge?type=snippets', { title: 'no', content: 'x', workspace_id: personal(alice) }), team);
      const synced = await call(k.api_key, 'POST', '/v1/todos', { project: 'keys', todos: [{ content: 'Team task', status: 'pending' }] });
      assert.equal(synced.status, 200, JSON.stringify(synced.body));
      assert.equal(synced.body.todos[0].workspace_id, team);

      // The unrestricted key is unchanged: personal by default, every workspace by id.
      assert.deepEqual(await solutionIds(alice.key), [homeEntry]);
      assert.equal((await call(alice.key, 'GET', `/v1/knowledge/${teamEntry}`)).status, 200);
    });

    it('a key restricted to the personal workspace cannot read or list team records', async () => {
      const k = await newKey(alice.key, { workspace_id: personal(alice) });
      assert.deepEqual(await solutionIds(k.api_key), [homeEntry]);
      assertBeyondKey(await call(k.api_key, 'GET', `/v1/knowledge/${teamEntry}`), personal(alice));
      assertBeyondKey(await call(k.api_key, 'GET', `/v1/todos?workspace_id=${team}`), personal(alice));
      assertBeyondKey(await call(k.api_key, 'DELETE', `/v1/knowledge/${teamEntry}`), personal(alice));
      assert.equal((await call(alice.key, 'GET', `/v1/knowledge/${teamEntry}`)).status, 200, 'still there');
    });

    it('scopes and the role still apply to a restricted key; a member removed from the workspace loses it at once', async () => {
      const reader = await newKey(alice.key, { workspace_id: team, scopes: ['knowledge:read'] });
      assert.deepEqual(await solutionIds(reader.api_key), [teamEntry]);
      assertRefused(await call(reader.api_key, 'POST', '/v1/knowledge?type=snippets', { title: 'no', content: 'x' }), 'insufficient_scope', 'required_scope', 'knowledge:write');

      const bobs = await newKey(bob.key, { workspace_id: team });
      assert.deepEqual(await solutionIds(bobs.api_key), [teamEntry]);
      assert.equal((await call(alice.key, 'PUT', `/v1/workspaces/${team}/members/${bob.userId}`, { role: 'viewer' })).status, 200);
      assertRefused(await call(bobs.api_key, 'POST', '/v1/knowledge?type=snippets', { title: 'viewer', content: 'x' }), 'forbidden', 'required_role', 'editor');
      assert.equal((await call(alice.key, 'DELETE', `/v1/workspaces/${team}/members/${bob.userId}`)).status, 200);
      assertRefused(await call(bobs.api_key, 'GET', '/v1/knowledge?type=solutions'), 'forbidden', 'required_role', 'viewer', /not one of yours/);
    });

    it('only a member makes a key for a workspace; a restricted key makes keys for its own workspace only', async () => {
      assertRefused(await call(carol.key, 'POST', '/v1/api-keys', { name: 'x', workspace_id: team }), 'forbidden', 'required_role', 'viewer', /not one of yours/);
      assertRefused(await call(carol.key, 'POST', '/v1/api-keys', { name: 'x', workspace_id: personal(alice) }), 'forbidden', 'required_role', 'viewer');
      assertError(await call(carol.key, 'POST', '/v1/api-keys', { name: 'x', workspace_id: 'wsp_01jzzzzzzzzzzzzzzzzzzzzzzz' }), 404, 'not_found', /workspace/);
      assertError(await call(carol.key, 'POST', '/v1/api-keys', { name: 'x', workspace_id: 'team' }), 400, 'invalid_request', /workspace_id/);
      const keysOfCarol = (await call(carol.key, 'GET', '/v1/api-keys')).body.api_keys.length;
      assert.equal(keysOfCarol, 1, 'no key was made by the refused requests');

      const k = await newKey(alice.key, { workspace_id: team });
      const child = await newKey(k.api_key, { name: 'child' });
      assert.equal(child.workspace_id, team, 'a restricted credential makes keys restricted to its workspace by default');
      assertBeyondKey(await call(k.api_key, 'POST', '/v1/api-keys', { name: 'x', workspace_id: personal(alice) }), team);
      assertError(await call(k.api_key, 'POST', '/v1/api-keys', { name: 'x', workspace_id: null }), 403, 'forbidden', /every workspace/);

      // It sees and disables only keys of its workspace.
      const seen = (await call(k.api_key, 'GET', '/v1/api-keys')).body.api_keys as { id: string; workspace_id: string }[];
      assert.ok(seen.length >= 2 && seen.every((x) => x.workspace_id === team), JSON.stringify(seen));
      const unrestricted = (await call(alice.key, 'GET', '/v1/api-keys')).body.api_keys.find((x: any) => x.workspace_id === null).id;
      assertBeyondKey(await call(k.api_key, 'DELETE', `/v1/api-keys/${unrestricted}`), team);
      assert.equal((await call(alice.key, 'GET', '/v1/knowledge?type=solutions')).status, 200, 'the unrestricted key still works');
      assert.equal((await call(k.api_key, 'DELETE', `/v1/api-keys/${child.id}`)).status, 200);
    });

    it('a console session opened with a restricted key is restricted the same way', async () => {
      const k = await newKey(alice.key, { workspace_id: team });
      const signIn = await s.req('POST', '/console/session', { body: { api_key: k.api_key }, headers: { 'x-console': '1' } });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const asConsole = (path: string) => s.req('GET', path, { headers: { cookie, 'x-console': '1' } });
      const listed = await asConsole('/v1/knowledge?type=solutions');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.solutions.map((x: any) => x.id),
        [teamEntry],
      );
      assertBeyondKey(await asConsole(`/v1/knowledge/${homeEntry}`), team);
    });

    it("MCP: a restricted key searches its workspace by default and cannot get another workspace's entry", async () => {
      const k = await newKey(alice.key, { workspace_id: team });
      const client = await httpClient(s, k.api_key);
      beforeClose(() => client.close());
      const found = ok(await client.callTool({ name: 'search_knowledge', arguments: { type: 'solutions' } }));
      assert.deepEqual(
        found.solutions.map((x: any) => [x.id, x.workspace_id]),
        [[teamEntry, team]],
      );
      const refused = toolError(await client.callTool({ name: 'get_knowledge', arguments: { id: homeEntry } }), 403, 'forbidden');
      assert.match(refused.error, new RegExp(`restricted to workspace ${team}`));
    });

    describe('OAuth consent picks the workspace', () => {
      let clientId = '';
      let aliceCookie = '';
      before(async () => {
        clientId = (await register(s)).client_id;
        const signIn = await s.req('POST', '/console/session', { body: { api_key: alice.key }, headers: { 'x-console': '1' } });
        aliceCookie = signIn.headers.get('set-cookie')!.split(';')[0];
      });

      async function consent(cookie = '') {
        const { verifier, challenge } = pkce();
        const url = authorizeUrl(s, {
          response_type: 'code',
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          scope: 'knowledge:read knowledge:write keys:manage',
        });
        const page = await openConsent(String(url), cookie);
        assert.equal(page.res.status, 200, page.html);
        return { page, verifier };
      }
      async function allow(c: Awaited<ReturnType<typeof consent>>, o: { workspace?: string; key?: string; cookie?: string }) {
        const page = o.workspace === undefined ? c.page : { ...c.page, hidden: { ...c.page.hidden, workspace_id: o.workspace } };
        return submitConsent(s, page, { key: o.key, cookie: o.cookie });
      }
      async function accessToken(c: Awaited<ReturnType<typeof consent>>, o: Parameters<typeof allow>[1]) {
        const r = await allow(c, o);
        assert.equal(r.res.status, 302, r.text);
        const t = await token(s, { grant_type: 'authorization_code', code: r.location!.searchParams.get('code')!, client_id: clientId, redirect_uri: REDIRECT, code_verifier: c.verifier });
        assert.equal(t.status, 200, JSON.stringify(t.body));
        return t.body as { access_token: string; refresh_token: string };
      }

      it('the signed-in page offers the personal workspace (checked) and the team; the token reaches the picked one only', async () => {
        const c = await consent(aliceCookie);
        const radios = [...c.page.html.matchAll(/<input type="radio" name="workspace_id" value="([^"]+)"( checked)?>/g)].map((m) => [m[1], !!m[2]]);
        assert.deepEqual(radios, [
          [personal(alice), true],
          [team, false],
        ]);
        assert.match(c.page.html, /Key team/);

        const t = await accessToken(c, { workspace: team, cookie: aliceCookie });
        assert.deepEqual(await solutionIds(t.access_token), [teamEntry], 'the token lists the team by default');
        assertBeyondKey(await call(t.access_token, 'GET', `/v1/knowledge/${homeEntry}`), team);
        const apps = (await call(alice.key, 'GET', '/v1/connected-apps')).body.connected_apps;
        assert.deepEqual(
          apps.map((a: any) => a.workspace_id),
          [team],
        );
        // A key the app makes (keys:manage) is restricted to the grant's workspace too.
        const made = await newKey(t.access_token, { name: 'by app', scopes: ['knowledge:read'] });
        assert.equal(made.workspace_id, team);
        assertBeyondKey(await call(made.api_key, 'GET', `/v1/knowledge/${homeEntry}`), team);

        // Refreshed tokens keep the restriction.
        const refreshed = await token(s, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId });
        assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
        assertBeyondKey(await call(refreshed.body.access_token, 'GET', `/v1/knowledge/${homeEntry}`), team);
      });

      it('without a choice the grant reaches the personal workspace only', async () => {
        const t = await accessToken(await consent(), { key: alice.key });
        assert.deepEqual(await solutionIds(t.access_token), [homeEntry]);
        assertBeyondKey(await call(t.access_token, 'GET', `/v1/knowledge/${teamEntry}`), personal(alice));
      });

      it("a workspace the approver is not in, or beyond the approving key's own, shows the form again with the reason", async () => {
        const notMember = await allow(await consent(), { key: carol.key, workspace: team });
        assert.equal(notMember.res.status, 403, notMember.text);
        assert.match(notMember.text, /not one of yours/);
        const unknown = await allow(await consent(), { key: alice.key, workspace: 'wsp_01jzzzzzzzzzzzzzzzzzzzzzzz' });
        assert.equal(unknown.res.status, 404, unknown.text);
        const malformed = await allow(await consent(), { key: alice.key, workspace: 'team"><script>' });
        assert.equal(malformed.res.status, 400, malformed.text);
        assert.doesNotMatch(malformed.text, /<script>/, 'the typed value is escaped');
        const restricted = await newKey(alice.key, { workspace_id: team });
        const beyond = await allow(await consent(), { key: restricted.api_key, workspace: personal(alice) });
        assert.equal(beyond.res.status, 403, beyond.text);
        assert.match(beyond.text, new RegExp(`restricted to workspace ${team}`));
        // Without a choice, a restricted approving key grants its own workspace.
        const t = await accessToken(await consent(), { key: restricted.api_key });
        assert.deepEqual(await solutionIds(t.access_token), [teamEntry]);
      });
    });
  });
}
