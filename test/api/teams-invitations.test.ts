import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { assertError, dialects, expect200, type Res } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { httpClient, ok } from '../mcp-helpers.js';
import { addMember, assertForbidden, makeTeam } from '../teams-helpers.js';

/**
 * Pending invitations (security round 3, finding 2): listed and revoked by the workspace's admins and
 * owners, over REST and MCP; an invitation dies with its maker's standing (leaving, removal, demotion
 * below admin), and accepting re-checks the maker, so one that survived is refused too.
 */
const UNKNOWN_WORKSPACE = 'wsp_01jzzzzzzzzzzzzzzzzzzzzzzz';

/** A tool error equal to REST's: the same status and body (a role rule's 403 names required_role on both). */
function sameAsRest(r: unknown, rest: Res) {
  const res = r as CallToolResult;
  assert.equal(res.isError, true, `expected a tool error, got ${JSON.stringify(res.structuredContent ?? res.content)}`);
  const { status, ...body } = JSON.parse((res.content[0] as { text: string }).text);
  assert.equal(status, rest.status);
  assert.deepEqual(body, rest.body);
}

for (const dialect of dialects()) {
  describe(`pending invitations [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-01T08:00:00.000Z'));
    const {
      s,
      users: u,
      beforeClose,
    } = useServer(dialect, {
      clock,
      users: { owner: 'pro', admin: 'pro', editor: 'pro', viewer: 'pro', outsider: 'pro' },
    });
    let team: string;
    let otherKey: TestUser;
    const mcp = {} as Record<'owner' | 'admin' | 'editor' | 'viewer' | 'outsider' | 'otherKey', Client>;
    before(async () => {
      team = await makeTeam(s, u.owner, 'Invites', [
        [u.admin, 'admin'],
        [u.editor, 'editor'],
        [u.viewer, 'viewer'],
      ]);
      const other = await makeTeam(s, u.owner, 'Other');
      const key = await expect200(s, u.owner.key, 'POST', '/v1/api-keys', { name: 'other only', workspace_id: other });
      otherKey = { key: key.api_key, userId: u.owner.userId, personalWorkspace: u.owner.personalWorkspace };
      for (const name of ['owner', 'admin', 'editor', 'viewer', 'outsider'] as const) mcp[name] = await httpClient(s, u[name].key);
      mcp.otherKey = await httpClient(s, otherKey.key);
    });
    beforeClose(async () => {
      for (const c of Object.values(mcp)) await c.close();
    });

    const call = (by: TestUser, method: string, path: string, body?: unknown) => s.req(method, path, { key: by.key, body });
    const invite = async (by: TestUser, role: 'admin' | 'editor' | 'viewer', ws = team, hours?: number) =>
      (await expect200(s, by.key, 'POST', `/v1/workspaces/${ws}/invitations`, { role, ...(hours ? { expires_in_hours: hours } : {}) })).invitation as { id: string; token: string };
    const pending = async (ws = team, by = u.owner) => (await expect200(s, by.key, 'GET', `/v1/workspaces/${ws}/invitations`)).invitations as any[];
    const accept = (by: TestUser, token: string) => call(by, 'POST', `/v1/invitations/${token}/accept`);

    it('lists pending invitations with their maker and expiry, never the token or its hash; accepted and expired ones are gone', async () => {
      const ws = await makeTeam(s, u.owner, 'Listing');
      await addMember(s, u.owner, ws, u.admin, 'admin');
      const a = await invite(u.owner, 'editor', ws, 2);
      const b = await invite(u.admin, 'viewer', ws);
      const used = await invite(u.owner, 'viewer', ws);
      const short = await invite(u.owner, 'viewer', ws, 1);
      await expect200(s, (await s.user('free')).key, 'POST', `/v1/invitations/${used.token}/accept`);
      clock.advance(3_600_000);
      const list = await pending(ws);
      const hashes = await s.c.db.selectFrom('workspace_invitations').select('token_hash').where('workspace_id', '=', ws).execute();
      assert.deepEqual(list, [
        { id: a.id, role: 'editor', invited_by: { user_id: u.owner.userId, name: list[0].invited_by.name }, created_at: '2026-05-01T08:00:00.000Z', expires_at: '2026-05-01T10:00:00.000Z' },
        { id: b.id, role: 'viewer', invited_by: { user_id: u.admin.userId, name: list[1].invited_by.name }, created_at: '2026-05-01T08:00:00.000Z', expires_at: '2026-05-08T08:00:00.000Z' },
      ]);
      assert.ok(
        list.every((i) => typeof i.invited_by.name === 'string' && i.invited_by.name.length > 0),
        'the maker is named',
      );
      const text = JSON.stringify(list);
      for (const t of [a, b, used, short]) assert.ok(!text.includes(t.token), 'no token');
      for (const h of hashes) assert.ok(!text.includes(h.token_hash), 'no token hash');
      assert.deepEqual(await pending(ws, u.admin), list, 'admins list them too');
    });

    it('revoking: accepting the token is a 404 from then on; a revoked, accepted or foreign invitation id is a 404', async () => {
      const inv = await invite(u.admin, 'editor');
      const revoked = await call(u.admin, 'DELETE', `/v1/workspaces/${team}/invitations/${inv.id}`);
      assert.deepEqual(revoked.body, { success: true, id: inv.id, revoked: true });
      assert.ok(!(await pending()).some((i) => i.id === inv.id));
      assertError(await accept(await s.user('free'), inv.token), 404, 'not_found', /revoked/);
      assertError(await call(u.owner, 'DELETE', `/v1/workspaces/${team}/invitations/${inv.id}`), 404, 'not_found', /not found/);
      // An invitation of another workspace is not this one's to revoke, even for its owner.
      const elsewhere = await makeTeam(s, u.owner, 'Elsewhere');
      const foreign = await invite(u.owner, 'viewer', elsewhere);
      assertError(await call(u.owner, 'DELETE', `/v1/workspaces/${team}/invitations/${foreign.id}`), 404, 'not_found');
      // An accepted one is no longer pending.
      const used = await invite(u.owner, 'viewer', elsewhere);
      await expect200(s, (await s.user('free')).key, 'POST', `/v1/invitations/${used.token}/accept`);
      assertError(await call(u.owner, 'DELETE', `/v1/workspaces/${elsewhere}/invitations/${used.id}`), 404, 'not_found');
      assert.equal((await accept(await s.user('free'), foreign.token)).status, 200, "the other workspace's invitation was untouched");
    });

    /** Every caller on both routes, REST and MCP: owner and admin ok; the rest 403; unknown ids 404. */
    it('who may list and revoke: owner and admin; editor, viewer, an outsider and a key restricted to another workspace 403', async () => {
      const cases: [string, TestUser, number][] = [
        ['owner', u.owner, 200],
        ['admin', u.admin, 200],
        ['editor', u.editor, 403],
        ['viewer', u.viewer, 403],
        ['outsider', u.outsider, 403],
        ['otherKey', otherKey, 403],
      ];
      for (const [name, by, want] of cases) {
        const inv = await invite(u.owner, 'viewer');
        const list = await call(by, 'GET', `/v1/workspaces/${team}/invitations`);
        const del = await call(by, 'DELETE', `/v1/workspaces/${team}/invitations/${inv.id}`);
        for (const [what, r] of [
          ['list', list],
          ['revoke', del],
        ] as [string, Res][]) {
          if (want === 200) assert.equal(r.status, 200, `${name} ${what}: ${JSON.stringify(r.body)}`);
          else if (name === 'otherKey') assertError(r, 403, 'forbidden', /restricted to workspace/);
          else assertForbidden(r, 'admin');
        }
        // MCP: the same answers, with the same errors as REST.
        const again = await invite(u.owner, 'viewer');
        const restList = await call(by, 'GET', `/v1/workspaces/${team}/invitations`);
        const viaList = await mcp[name as keyof typeof mcp].callTool({ name: 'list_workspace_invitations', arguments: { workspace_id: team } });
        const viaRevoke = await mcp[name as keyof typeof mcp].callTool({ name: 'revoke_workspace_invitation', arguments: { workspace_id: team, invitation_id: again.id } });
        if (want === 200) {
          assert.deepEqual(ok(viaList).invitations, restList.body.invitations);
          assert.ok(restList.body.invitations.some((i: any) => i.id === again.id));
          assert.deepEqual(ok(viaRevoke), { success: true, id: again.id, revoked: true });
          assertError(await accept(await s.user('free'), again.token), 404, 'not_found');
        } else {
          sameAsRest(viaList, restList);
          sameAsRest(viaRevoke, await call(by, 'DELETE', `/v1/workspaces/${team}/invitations/${again.id}`));
          assert.equal((await accept(await s.user('free'), again.token)).status, 200, `${name} could not revoke it`);
        }
        if (want === 200) assert.equal((await accept(await s.user('free'), inv.token)).status, 404, `${name} revoked it`);
        else assert.equal((await accept(await s.user('free'), inv.token)).status, 200, `${name} did not revoke it`);
      }
      // Unknown workspace: 404 on both; unknown invitation id: 404.
      assertError(await call(u.owner, 'GET', `/v1/workspaces/${UNKNOWN_WORKSPACE}/invitations`), 404, 'not_found');
      assertError(await call(u.owner, 'DELETE', `/v1/workspaces/${UNKNOWN_WORKSPACE}/invitations/inv_nothing`), 404, 'not_found');
      assertError(await call(u.admin, 'DELETE', `/v1/workspaces/${team}/invitations/inv_01jzzzzzzzzzzzzzzzzzzzzzzz`), 404, 'not_found');
      sameAsRest(
        await mcp.owner.callTool({ name: 'revoke_workspace_invitation', arguments: { workspace_id: team, invitation_id: 'inv_nothing' } }),
        await call(u.owner, 'DELETE', `/v1/workspaces/${team}/invitations/inv_nothing`),
      );
      sameAsRest(await mcp.owner.callTool({ name: 'list_workspace_invitations', arguments: { workspace_id: UNKNOWN_WORKSPACE } }), await call(u.owner, 'GET', `/v1/workspaces/${UNKNOWN_WORKSPACE}/invitations`));
      // Without workspace_id: the key's workspace, else the personal one (no invitations there).
      assert.deepEqual(ok(await mcp.owner.callTool({ name: 'list_workspace_invitations', arguments: {} })).invitations, []);
      assertError(await s.req('GET', `/v1/workspaces/${team}/invitations`), 401, 'unauthorized');
    });

    it("a removed maker's or a leaving maker's invitations die: listing drops them, accepting is a 404", async () => {
      const ws = await makeTeam(s, u.owner, 'Removal');
      const admin = await s.user('pro');
      const leaver = await s.user('pro');
      await addMember(s, u.owner, ws, admin, 'admin');
      await addMember(s, u.owner, ws, leaver, 'admin');
      const byAdmin = await invite(admin, 'admin', ws);
      const byLeaver = await invite(leaver, 'editor', ws);
      const byOwner = await invite(u.owner, 'viewer', ws);
      await expect200(s, u.owner.key, 'DELETE', `/v1/workspaces/${ws}/members/${admin.userId}`);
      await expect200(s, leaver.key, 'DELETE', `/v1/workspaces/${ws}/members/${leaver.userId}`);
      assert.deepEqual(
        (await pending(ws)).map((i) => i.id),
        [byOwner.id],
        "only the owner's is left",
      );
      const newcomer = await s.user('free');
      assertError(await accept(newcomer, byAdmin.token), 404, 'not_found', /revoked/);
      assertError(await accept(newcomer, byLeaver.token), 404, 'not_found');
      // Rejoining does not bring them back.
      await addMember(s, u.owner, ws, admin, 'admin');
      assertError(await accept(newcomer, byAdmin.token), 404, 'not_found');
      assert.equal((await accept(newcomer, byOwner.token)).status, 200);
    });

    it('a maker demoted below admin loses every pending invitation; owner to admin keeps them', async () => {
      const ws = await makeTeam(s, u.owner, 'Demotion');
      const admin = await s.user('pro');
      const coOwner = await s.user('pro');
      await addMember(s, u.owner, ws, admin, 'admin');
      await addMember(s, u.owner, ws, coOwner, 'admin');
      await expect200(s, u.owner.key, 'PUT', `/v1/workspaces/${ws}/members/${coOwner.userId}`, { role: 'owner' });
      const asAdmin = await invite(admin, 'admin', ws);
      const asViewerRole = await invite(admin, 'viewer', ws);
      const byCoOwner = await invite(coOwner, 'admin', ws);
      await expect200(s, u.owner.key, 'PUT', `/v1/workspaces/${ws}/members/${admin.userId}`, { role: 'editor' });
      await expect200(s, u.owner.key, 'PUT', `/v1/workspaces/${ws}/members/${coOwner.userId}`, { role: 'admin' });
      assert.deepEqual(
        (await pending(ws)).map((i) => i.id),
        [byCoOwner.id],
        'an admin may still grant admin',
      );
      const newcomer = await s.user('free');
      assertError(await accept(newcomer, asAdmin.token), 404, 'not_found');
      // Inviting needs admin: even the viewer invitation dies.
      assertError(await accept(newcomer, asViewerRole.token), 404, 'not_found');
      // Promoted again: what died stays dead.
      await expect200(s, u.owner.key, 'PUT', `/v1/workspaces/${ws}/members/${admin.userId}`, { role: 'admin' });
      assertError(await accept(newcomer, asAdmin.token), 404, 'not_found');
      const joined = await accept(newcomer, byCoOwner.token);
      assert.equal(joined.status, 200);
      assert.equal(joined.body.workspace.role, 'admin');
    });

    it("accepting re-checks the maker: an invitation that survived its maker's demotion or removal is refused", async () => {
      const ws = await makeTeam(s, u.owner, 'Recheck');
      const admin = await s.user('pro');
      await addMember(s, u.owner, ws, admin, 'admin');
      const inv = await invite(admin, 'admin', ws);
      const other = await invite(admin, 'viewer', ws);
      // Changed behind the service's back (an older server, a manual edit): the rows survive, the accept must not.
      const setRole = (role: 'editor' | 'admin') => s.c.db.updateTable('workspace_members').set({ role }).where('workspace_id', '=', ws).where('user_id', '=', admin.userId).execute();
      await setRole('editor');
      const newcomer = await s.user('free');
      assertError(await accept(newcomer, inv.token), 404, 'not_found');
      // An editor may not invite at all.
      assertError(await accept(newcomer, other.token), 404, 'not_found');
      await setRole('admin');
      await s.c.db.deleteFrom('workspace_members').where('workspace_id', '=', ws).where('user_id', '=', admin.userId).execute();
      assertError(await accept(newcomer, inv.token), 404, 'not_found');
      assert.deepEqual(
        (await expect200(s, newcomer.key, 'GET', '/v1/workspaces')).workspaces.map((w: any) => w.id),
        [`wsp_${newcomer.userId.slice(4)}`],
      );
    });
  });
}
