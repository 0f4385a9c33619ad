import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, startServer, type TestServer } from '../helpers.js';
import { manualClock } from '../../src/clock.js';
import { addMember, assertForbidden, makeTeam, type MemberRole } from '../teams-helpers.js';

/** Workspaces, members and invitations (issue 33): roles decide, one owner always remains, tokens are single use. */
for (const dialect of dialects()) {
  describe(`workspaces [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-01T08:00:00.000Z'));
    let s: TestServer;
    type User = { key: string; userId: string; personalWorkspace: string };
    let owner: User;
    before(async () => {
      s = await startServer(dialect, { clock });
      owner = await s.user('pro');
    });
    after(() => s.close());

    const call = (u: User, method: string, path: string, body?: unknown) => s.req(method, path, { key: u.key, body });
    const team = (name = 'Rocket team', by = owner) => makeTeam(s, by, name);
    async function join(id: string, role: MemberRole, by = owner): Promise<User> {
      const u = await s.user('free');
      await addMember(s, by, id, u, role);
      return u;
    }

    it('every account has its personal workspace, listed first, owned by it', async () => {
      const u = await s.user('free');
      const r = await call(u, 'GET', '/v1/workspaces');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.workspaces, [{ id: `wsp_${u.userId.slice(4)}`, name: 'Personal', role: 'owner', personal: true, created_at: '2026-05-01T08:00:00.000Z' }]);
    });

    it('a team workspace needs a paid plan and a name; its maker owns it', async () => {
      const free = await s.user('free');
      assertError(await call(free, 'POST', '/v1/workspaces', { name: 'x' }), 403, 'plan_required', /Pro/);
      assertError(await call(owner, 'POST', '/v1/workspaces', { name: '   ' }), 400, 'invalid_request', /name/);
      const id = await team('Alpha');
      assert.match(id, /^wsp_[0-9a-z]{26}$/);
      const got = await call(owner, 'GET', `/v1/workspaces/${id}`);
      assert.deepEqual(got.body.workspace, { id, name: 'Alpha', role: 'owner', personal: false, created_at: '2026-05-01T08:00:00.000Z' });
      const listed = (await call(owner, 'GET', '/v1/workspaces')).body.workspaces.map((w: any) => w.id);
      assert.equal(listed[0], `wsp_${owner.userId.slice(4)}`, 'personal first');
      assert.ok(listed.includes(id));
    });

    it('outside a workspace: 403 naming the role for one that exists, 404 for an unknown id', async () => {
      const id = await team();
      const stranger = await s.user('pro');
      assertForbidden(await call(stranger, 'GET', `/v1/workspaces/${id}`), 'viewer', /not one of yours/);
      assertError(await call(stranger, 'GET', '/v1/workspaces/wsp_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
      assertForbidden(await call(stranger, 'GET', `/v1/workspaces/${id}/members`), 'viewer');
      // Another account's personal workspace is just as closed.
      assertForbidden(await call(stranger, 'GET', `/v1/workspaces/wsp_${owner.userId.slice(4)}`), 'viewer');
    });

    it('roles decide: viewers read, admins rename and invite, editors do neither', async () => {
      const id = await team('Roles');
      const admin = await join(id, 'admin');
      const editor = await join(id, 'editor');
      const viewer = await join(id, 'viewer');
      assert.equal((await call(viewer, 'GET', `/v1/workspaces/${id}`)).body.workspace.role, 'viewer');
      const members = (await call(viewer, 'GET', `/v1/workspaces/${id}/members`)).body.members;
      assert.deepEqual(
        members.map((m: any) => [m.user_id, m.role]).sort(),
        [
          [owner.userId, 'owner'],
          [admin.userId, 'admin'],
          [editor.userId, 'editor'],
          [viewer.userId, 'viewer'],
        ].sort(),
      );
      assertForbidden(await call(editor, 'PUT', `/v1/workspaces/${id}`, { name: 'Nope' }), 'admin', /admin role/);
      assertForbidden(await call(viewer, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'viewer' }), 'admin');
      const renamed = await call(admin, 'PUT', `/v1/workspaces/${id}`, { name: 'Renamed' });
      assert.equal(renamed.body.workspace.name, 'Renamed');
      assert.equal((await call(viewer, 'GET', `/v1/workspaces/${id}`)).body.workspace.name, 'Renamed');
    });

    it('an invitation is single use, expires, and cannot make an owner', async () => {
      const id = await team('Invites');
      const inv = await call(owner, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'editor', expires_in_hours: 2 });
      const { invitation } = inv.body;
      assert.deepEqual(Object.keys(invitation).sort(), ['expires_at', 'id', 'role', 'token', 'url']);
      assert.match(invitation.id, /^inv_/);
      assert.ok(invitation.token.length >= 40, 'a long random token');
      assert.equal(invitation.expires_at, '2026-05-01T10:00:00.000Z');
      assert.equal(invitation.url, `${s.url}/console/#/join/${invitation.token}`, 'a page the invitee can open');
      const stored = await s.c.db.selectFrom('workspace_invitations').select('token_hash').where('id', '=', invitation.id).executeTakeFirstOrThrow();
      assert.notEqual(stored.token_hash, invitation.token, 'the token is stored hashed');
      assert.ok(!stored.token_hash.includes(invitation.token.slice(4, 20)));

      const a = await s.user('free');
      const b = await s.user('free');
      assert.equal((await call(a, 'POST', `/v1/invitations/${invitation.token}/accept`)).body.workspace.role, 'editor');
      assertError(await call(b, 'POST', `/v1/invitations/${invitation.token}/accept`), 404, 'not_found', /already used/);
      assertError(await call(b, 'POST', '/v1/invitations/inv_made-up/accept'), 404, 'not_found');

      const late = (await call(owner, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'viewer', expires_in_hours: 1 })).body.invitation;
      clock.advance(3_600_000);
      assertError(await call(b, 'POST', `/v1/invitations/${late.token}/accept`), 404, 'not_found', /expired/);

      const again = (await call(owner, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'viewer' })).body.invitation;
      assertError(await call(a, 'POST', `/v1/invitations/${again.token}/accept`), 409, 'conflict', /already a member/);
      assertError(await call(owner, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'owner' }), 400, 'invalid_request', /role/);
      assertError(await call(owner, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'viewer', expires_in_hours: 0 }), 400, 'invalid_request', /expires_in_hours/);
      assertError(await call(owner, 'POST', `/v1/workspaces/wsp_${owner.userId.slice(4)}/invitations`, { role: 'viewer' }), 400, 'invalid_request', /personal/);
    });

    it('many accept one token at once: exactly one joins', async () => {
      const id = await team('Race');
      const token = (await call(owner, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'viewer' })).body.invitation.token;
      const users = await Promise.all(Array.from({ length: 8 }, () => s.user('free')));
      const results = await Promise.all(users.map((u) => call(u, 'POST', `/v1/invitations/${token}/accept`)));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 404, 404, 404, 404, 404, 404, 404]);
      const members = (await call(owner, 'GET', `/v1/workspaces/${id}/members`)).body.members;
      assert.equal(members.length, 2);
    });

    it('one owner always remains; ownership moves only by an owner', async () => {
      const id = await team('Owners');
      const admin = await join(id, 'admin');
      assertError(await call(owner, 'PUT', `/v1/workspaces/${id}/members/${owner.userId}`, { role: 'admin' }), 409, 'conflict', /one owner/);
      assertError(await call(owner, 'DELETE', `/v1/workspaces/${id}/members/${owner.userId}`), 409, 'conflict', /one owner/);
      assertForbidden(await call(admin, 'PUT', `/v1/workspaces/${id}/members/${admin.userId}`, { role: 'owner' }), 'owner');
      assertForbidden(await call(admin, 'DELETE', `/v1/workspaces/${id}/members/${owner.userId}`), 'owner');
      const moved = await call(owner, 'PUT', `/v1/workspaces/${id}/members/${admin.userId}`, { role: 'owner' });
      assert.deepEqual({ ...moved.body.member, joined_at: undefined }, { user_id: admin.userId, name: moved.body.member.name, role: 'owner', joined_at: undefined });
      // Two owners now: either may step down, and the first to leave leaves the other as the one owner.
      const both = await Promise.all([
        call(owner, 'PUT', `/v1/workspaces/${id}/members/${owner.userId}`, { role: 'viewer' }),
        call(admin, 'PUT', `/v1/workspaces/${id}/members/${admin.userId}`, { role: 'viewer' }),
      ]);
      assert.deepEqual(both.map((r) => r.status).sort(), [200, 409], 'never both: that would leave no owner');
      const members = (await call(owner, 'GET', `/v1/workspaces/${id}/members`)).body.members;
      assert.deepEqual(members.map((m: any) => m.role).sort(), ['owner', 'viewer']);
      const still = members.find((m: any) => m.role === 'owner').user_id === owner.userId ? owner : admin;
      assertError(await call(still, 'PUT', `/v1/workspaces/${id}/members/${still.userId}`, { role: 'boss' }), 400, 'invalid_request', /role/);
      assertError(await call(still, 'PUT', `/v1/workspaces/${id}/members/usr_nobody`, { role: 'viewer' }), 404, 'not_found', /not a member/);
    });

    it('a removed member is out with the next request; a member may leave', async () => {
      const id = await team('Leavers');
      const editor = await join(id, 'editor');
      const viewer = await join(id, 'viewer');
      assert.equal((await call(editor, 'GET', `/v1/workspaces/${id}`)).status, 200);
      const removed = await call(owner, 'DELETE', `/v1/workspaces/${id}/members/${editor.userId}`);
      assert.deepEqual(removed.body, { success: true, workspace_id: id, user_id: editor.userId, removed: true });
      assertForbidden(await call(editor, 'GET', `/v1/workspaces/${id}`), 'viewer');
      assertForbidden(await call(viewer, 'DELETE', `/v1/workspaces/${id}/members/${owner.userId}`), 'admin');
      assert.equal((await call(viewer, 'DELETE', `/v1/workspaces/${id}/members/${viewer.userId}`)).status, 200);
      assert.deepEqual(
        (await call(viewer, 'GET', '/v1/workspaces')).body.workspaces.map((w: any) => w.personal),
        [true],
      );
      assertError(await call(owner, 'DELETE', `/v1/workspaces/${id}/members/${viewer.userId}`), 404, 'not_found', /not a member/);
    });

    it('deleting: owner only, team workspaces only, after confirming the name', async () => {
      const id = await team('Doomed');
      const admin = await join(id, 'admin');
      assertForbidden(await call(admin, 'DELETE', `/v1/workspaces/${id}`, { confirm: 'Doomed' }), 'owner');
      assertError(await call(owner, 'DELETE', `/v1/workspaces/${id}`, { confirm: 'doomed' }), 400, 'invalid_request', /confirm/);
      assertError(await call(owner, 'DELETE', `/v1/workspaces/${id}`, {}), 400, 'invalid_request', /confirm/);
      const personal = `wsp_${owner.userId.slice(4)}`;
      assertError(await call(owner, 'DELETE', `/v1/workspaces/${personal}`, { confirm: 'Personal' }), 400, 'invalid_request', /personal/);
      assert.deepEqual((await call(owner, 'DELETE', `/v1/workspaces/${id}`, { confirm: 'Doomed' })).body, { success: true, id, deleted: true });
      assertError(await call(owner, 'GET', `/v1/workspaces/${id}`), 404, 'not_found');
      assertError(await call(admin, 'GET', `/v1/workspaces/${id}`), 404, 'not_found');
      const left = await s.c.db.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', id).execute();
      assert.deepEqual(left, []);
    });

    it('a key restricted to one workspace sees and manages only that one', async () => {
      const a = await team('Key A');
      const b = await team('Key B');
      const made = await call(owner, 'POST', '/v1/api-keys', { name: 'A only', workspace_id: a });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const restricted: User = { key: made.body.api_key, userId: owner.userId, personalWorkspace: owner.personalWorkspace };
      assert.deepEqual(
        (await call(restricted, 'GET', '/v1/workspaces')).body.workspaces.map((w: any) => w.id),
        [a],
      );
      assert.equal((await call(restricted, 'GET', `/v1/workspaces/${a}`)).status, 200);
      assert.equal((await call(restricted, 'POST', `/v1/workspaces/${a}/invitations`, { role: 'viewer' })).status, 200);
      const elsewhere = [
        await call(restricted, 'GET', `/v1/workspaces/${b}`),
        await call(restricted, 'PUT', `/v1/workspaces/${b}`, { name: 'renamed' }),
        await call(restricted, 'GET', `/v1/workspaces/${b}/members`),
        await call(restricted, 'POST', `/v1/workspaces/${b}/invitations`, { role: 'viewer' }),
        await call(restricted, 'DELETE', `/v1/workspaces/${b}/members/${owner.userId}`),
        await call(restricted, 'DELETE', `/v1/workspaces/${b}`, { confirm: 'Key B' }),
        await call(restricted, 'POST', '/v1/workspaces', { name: 'New' }),
      ];
      for (const r of elsewhere) assertError(r, 403, 'forbidden', /restricted to workspace/);
      const inv = await call(owner, 'POST', `/v1/workspaces/${b}/invitations`, { role: 'viewer' });
      const other = await s.user('pro');
      const otherKey = await call(other, 'POST', '/v1/api-keys', { name: 'personal only', workspace_id: `wsp_${other.userId.slice(4)}` });
      assertError(
        await call({ key: otherKey.body.api_key, userId: other.userId, personalWorkspace: other.personalWorkspace }, 'POST', `/v1/invitations/${inv.body.invitation.token}/accept`),
        403,
        'forbidden',
        /unrestricted key/,
      );
      assert.equal((await call(other, 'POST', `/v1/invitations/${inv.body.invitation.token}/accept`)).status, 200, 'the invitation stayed unused');
      assert.equal((await call(owner, 'GET', `/v1/workspaces/${b}`)).body.workspace.name, 'Key B');
    });

    it("a deleted team workspace's records go with it; the owner's personal records stay", async () => {
      const id = await team('Short-lived');
      const editor = await join(id, 'editor');
      const mine = await call(owner, 'POST', '/v1/knowledge?type=solutions', { title: 'mine', content: 'kept', error: 'E' });
      const theirs = await call(editor, 'POST', '/v1/knowledge?type=solutions', { title: 'team', content: 'goes', error: 'E', workspace_id: id });
      assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
      assert.equal(theirs.body.solution.workspace_id, id);
      const synced = await call(editor, 'POST', '/v1/todos', { workspace_id: id, todos: [{ content: 'team task', status: 'pending' }] });
      assert.equal(synced.status, 200, JSON.stringify(synced.body));
      assert.equal((await call(owner, 'DELETE', `/v1/workspaces/${id}`, { confirm: 'Short-lived' })).status, 200);
      assertError(await call(owner, 'GET', `/v1/knowledge/${theirs.body.id}`), 404, 'not_found');
      assertError(await call(editor, 'GET', `/v1/todos?workspace_id=${id}`), 404, 'not_found');
      for (const table of ['knowledge', 'todos', 'outbox'] as const) {
        const rows = await s.c.db.selectFrom(table).select('id').where('workspace_id', '=', id).execute();
        assert.deepEqual(rows, [], `${table} rows of the deleted workspace`);
      }
      assert.equal((await call(owner, 'GET', `/v1/knowledge/${mine.body.id}`)).status, 200);
    });
  });
}
