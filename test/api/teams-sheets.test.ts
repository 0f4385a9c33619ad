import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, request } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { addMember, assertForbidden, makeTeam } from '../teams-helpers.js';

/** Sheets and their share links in team workspaces (issue 33.2, 33.3, 33.6, 33.8): docs/teams.md. */
for (const dialect of dialects()) {
  describe(`sheets in team workspaces [${dialect}]`, () => {
    const {
      s,
      users: { alice, bob, carol, dave },
    } = useServer(dialect, { users: { alice: 'pro', bob: 'pro', carol: 'free', dave: 'pro' } });
    let team: string;
    const personal = (u: TestUser) => `wsp_${u.userId.slice(4)}`;
    const call = (u: TestUser | string, method: string, path: string, body?: unknown) => s.req(method, path, { key: typeof u === 'string' ? u : u.key, body });
    async function expectOk(u: TestUser | string, method: string, path: string, body?: unknown) {
      const r = await call(u, method, path, body);
      assert.equal(r.status, 200, `${method} ${path}: ${JSON.stringify(r.body)}`);
      return r.body;
    }
    const newSheet = async (u: TestUser, title: string, workspaceId?: string) =>
      (await expectOk(u, 'POST', '/v1/sheets', { title, content: { col1: `<p>${title} text</p>` }, ...(workspaceId && { workspace_id: workspaceId }) })).sheet;
    const hotAnswers = async () => {
      const text = await (await fetch(`${s.url}/metrics`)).text();
      return Number(/^http_hot_path_answers_total\{route="\/v1\/sheets\/:id"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };

    before(async () => {
      team = await makeTeam(s, alice, 'Sheets team', [
        [bob, 'editor'],
        [carol, 'viewer'],
      ]);
    });

    it('an editor creates in the workspace; lists show only that workspace, the default list stays personal', async () => {
      const mine = await newSheet(alice, 'Alice private');
      assert.equal(mine.workspace_id, personal(alice));
      const shared = await newSheet(bob, 'Team plan', team);
      assert.equal(shared.workspace_id, team);
      const [ev] = (await s.events('sheet.created')).filter((e) => e.data.sheet_id === shared.id);
      assert.equal(ev.workspace_id, team, "the team's webhooks and streams get it");
      assert.deepEqual({ workspace_id: ev.data.workspace_id, actor_id: ev.data.actor_id }, { workspace_id: team, actor_id: bob.userId });

      const teamList = await expectOk(alice, 'GET', `/v1/sheets?workspace_id=${team}`);
      assert.deepEqual(
        teamList.sheets.map((x: { id: string }) => x.id),
        [shared.id],
      );
      assert.equal(teamList.total, 1);
      assert.equal(teamList.sheets[0].workspace_id, team);
      const ownList = await expectOk(alice, 'GET', '/v1/sheets');
      assert.deepEqual(
        ownList.sheets.map((x: { id: string }) => x.id),
        [mine.id],
      );
      assert.equal((await expectOk(bob, 'GET', '/v1/sheets')).total, 0, "bob's personal list does not hold the team's sheet");
      assert.deepEqual(
        (await expectOk(carol, 'GET', `/v1/sheets?workspace_id=${team}&q=plan`)).sheets.map((x: { id: string }) => x.id),
        [shared.id],
      );
      assert.equal((await expectOk(alice, 'GET', '/v1/sheets?q=plan')).total, 0, 'a search without workspace_id stays personal');
      assert.equal((await expectOk(alice, 'GET', `/v1/sheets?workspace_id=${personal(alice)}`)).total, 1, 'the personal workspace by its id');
    });

    it('by id: every member reads a team sheet (the hot GET too), a viewer may not write, outsiders get 403 or 404', async () => {
      const sheet = await newSheet(bob, 'Roles', team);
      const hot = await hotAnswers();
      for (const u of [alice, bob, carol]) {
        const got = await expectOk(u, 'GET', `/v1/sheets/${sheet.id}`);
        assert.equal(got.sheet.workspace_id, team);
        assert.equal(got.sheet.title, 'Roles');
      }
      assert.equal(await hotAnswers(), hot + 3, 'the hot path answered the team reads');
      assert.equal((await expectOk(carol, 'GET', `/v1/sheets/${sheet.id}?format=text`)).sheet.content.col1, 'Roles text');
      assert.equal((await expectOk(carol, 'GET', `/v1/sheets/${sheet.id}/revisions`)).current.version, 1);

      assertForbidden(await call(carol, 'PUT', `/v1/sheets/${sheet.id}`, { title: 'viewer edit' }), 'editor');
      assertForbidden(await call(carol, 'POST', `/v1/sheets/${sheet.id}/append`, { html: '<p>x</p>' }), 'editor');
      assertForbidden(await call(carol, 'DELETE', `/v1/sheets/${sheet.id}`), 'editor');
      assertForbidden(await call(carol, 'POST', `/v1/sheets/${sheet.id}/revisions/1/restore`), 'editor');
      assertForbidden(await call(carol, 'POST', '/v1/sheets', { title: 'viewer made', workspace_id: team }), 'editor');
      assert.equal((await expectOk(alice, 'GET', `/v1/sheets/${sheet.id}`)).sheet.version, 1, 'nothing the viewer sent changed it');

      assertForbidden(await call(dave, 'GET', `/v1/sheets/${sheet.id}`), 'viewer');
      assertForbidden(await call(dave, 'PUT', `/v1/sheets/${sheet.id}`, { title: 'outsider' }), 'editor');
      assertForbidden(await call(dave, 'GET', `/v1/sheets?workspace_id=${team}`), 'viewer');
      assertForbidden(await call(dave, 'POST', '/v1/sheets', { title: 'outsider made', workspace_id: team }), 'editor');
      assertError(await call(dave, 'GET', '/v1/sheets/sht_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
      assertError(await call(alice, 'GET', '/v1/sheets?workspace_id=wsp_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found', /workspace/);
      assertError(await call(alice, 'GET', '/v1/sheets?workspace_id=team'), 400, 'invalid_request', /workspace_id/);
      // A member's personal sheet stays theirs: other members of a team share nothing else.
      const bobs = await newSheet(bob, 'Bob alone');
      assertError(await call(alice, 'GET', `/v1/sheets/${bobs.id}`), 403, 'forbidden');
    });

    it('editors write; revisions and events name the member who wrote', async () => {
      const sheet = await newSheet(bob, 'Minutes', team);
      const put = await expectOk(alice, 'PUT', `/v1/sheets/${sheet.id}`, { content: { col2: '<p>by alice</p>' } });
      assert.equal(put.sheet.workspace_id, team);
      await expectOk(bob, 'POST', `/v1/sheets/${sheet.id}/append`, { column: 'col2', html: '<p>by bob</p>' });
      const revs = await expectOk(carol, 'GET', `/v1/sheets/${sheet.id}/revisions`);
      assert.equal(revs.current.actor.user_id, bob.userId);
      assert.deepEqual(
        revs.revisions.map((r: { actor: { user_id: string } }) => r.actor.user_id),
        [alice.userId, bob.userId],
      );
      const updates = (await s.events('sheet.updated')).filter((e) => e.data.sheet_id === sheet.id);
      assert.deepEqual(
        updates.map((e) => [e.workspace_id, e.data.workspace_id, e.data.actor_id]),
        [
          [team, team, alice.userId],
          [team, team, bob.userId],
        ],
      );
      await expectOk(bob, 'DELETE', `/v1/sheets/${sheet.id}`);
      const [deleted] = (await s.events('sheet.deleted')).filter((e) => e.data.sheet_id === sheet.id);
      assert.equal(deleted.workspace_id, team);
      assert.equal(deleted.data.actor_id, bob.userId);
      assert.equal(
        (await expectOk(carol, 'GET', `/v1/sheets?workspace_id=${team}&trashed=true`)).sheets.some((x: { id: string }) => x.id === sheet.id),
        true,
      );
      assert.equal((await expectOk(alice, 'POST', `/v1/sheets/${sheet.id}/restore`)).sheet.trashedAt, null);
    });

    it('a write stored before workspaces shows actor.user_id null', async () => {
      const sheet = await newSheet(alice, 'Old actor');
      await s.c.db
        .updateTable('sheets')
        .set({ last_actor: JSON.stringify({ type: 'api_key', id: 'key_old', name: 'old' }) })
        .where('id', '=', sheet.id)
        .execute();
      const revs = await expectOk(alice, 'GET', `/v1/sheets/${sheet.id}/revisions`);
      assert.deepEqual(revs.current.actor, { type: 'api_key', id: 'key_old', name: 'old', user_id: null });
    });

    it('share links of a team sheet: editors make, list and revoke them, viewers cannot; a link ends when its maker leaves', async () => {
      const sheet = await newSheet(bob, 'Shared out', team);
      assertForbidden(await call(carol, 'POST', `/v1/sheets/${sheet.id}/shares`, {}), 'editor');
      assertForbidden(await call(carol, 'GET', `/v1/sheets/${sheet.id}/shares`), 'editor');
      assertForbidden(await call(dave, 'POST', `/v1/sheets/${sheet.id}/shares`, {}), 'editor');
      const { share } = await expectOk(bob, 'POST', `/v1/sheets/${sheet.id}/shares`, {});
      assert.equal((await request(s.url, 'GET', `/v1/shared/${share.token}`)).body.sheet.title, 'Shared out');
      const listed = await expectOk(alice, 'GET', `/v1/sheets/${sheet.id}/shares`);
      assert.deepEqual(
        listed.shares.map((x: { id: string; created_by: string }) => [x.id, x.created_by]),
        [[share.id, bob.userId]],
      );
      assertForbidden(await call(carol, 'DELETE', `/v1/sheets/${sheet.id}/shares/${share.id}`), 'editor');
      await expectOk(alice, 'DELETE', `/v1/sheets/${sheet.id}/shares/${share.id}`);
      assert.equal((await request(s.url, 'GET', `/v1/shared/${share.token}`)).status, 404);

      // Someone who is no longer a member keeps no link reading the team's sheet.
      const erin = await s.user('free');
      await addMember(s, alice, team, erin, 'editor');
      const erins = (await expectOk(erin, 'POST', `/v1/sheets/${sheet.id}/shares`, {})).share;
      assert.equal((await request(s.url, 'GET', `/v1/shared/${erins.token}`)).status, 200);
      await expectOk(alice, 'DELETE', `/v1/workspaces/${team}/members/${erin.userId}`);
      assert.equal((await request(s.url, 'GET', `/v1/shared/${erins.token}`)).status, 404);
    });

    it("a key restricted to the team workspace creates and lists there, and cannot read its account's personal sheets", async () => {
      const mine = await newSheet(alice, 'Alice only');
      const restricted = (await expectOk(alice, 'POST', '/v1/api-keys', { name: 'team only', workspace_id: team })).api_key as string;
      const made = (await expectOk(restricted, 'POST', '/v1/sheets', { title: 'Via team key' })).sheet;
      assert.equal(made.workspace_id, team, 'its default workspace is its own');
      assert.ok((await expectOk(restricted, 'GET', '/v1/sheets?limit=100')).sheets.some((x: { id: string }) => x.id === made.id));
      assert.equal((await expectOk(restricted, 'GET', `/v1/sheets/${made.id}`)).sheet.id, made.id);
      assertError(await call(restricted, 'GET', `/v1/sheets/${mine.id}`), 403, 'forbidden', /restricted/);
      assertError(await call(restricted, 'GET', `/v1/sheets?workspace_id=${personal(alice)}`), 403, 'forbidden', /restricted/);
      assertError(await call(restricted, 'PUT', `/v1/sheets/${mine.id}`, { title: 'no' }), 403, 'forbidden', /restricted/);
    });

    it('MCP: create_sheet, list_sheets and get_sheet_content take and say workspace_id', async () => {
      const mcp = await httpClient(s, bob.key);
      try {
        const made = ok(await mcp.callTool({ name: 'create_sheet', arguments: { title: 'Over MCP', content: { col1: '<p>hi</p>' }, workspace_id: team } }));
        assert.equal(made.sheet.workspace_id, team);
        const listed = ok(await mcp.callTool({ name: 'list_sheets', arguments: { workspace_id: team } }));
        assert.ok(listed.sheets.some((x: { id: string; workspace_id: string }) => x.id === made.id && x.workspace_id === team));
        assert.ok(!ok(await mcp.callTool({ name: 'list_sheets', arguments: {} })).sheets.some((x: { id: string }) => x.id === made.id));
        const content = ok(await mcp.callTool({ name: 'get_sheet_content', arguments: { id: made.id } }));
        assert.equal(content.workspace_id, team);
        assert.equal((await expectOk(carol, 'GET', `/v1/sheets/${made.id}`)).sheet.title, 'Over MCP');

        // By id, workspace_id is a check: the sheet's own workspace works, another of bob's is a 403 (and writes nothing).
        const got = ok(await mcp.callTool({ name: 'get_sheet', arguments: { id: made.id, workspace_id: team } }));
        assert.deepEqual([got.sheet.id, got.sheet.workspace_id], [made.id, team]);
        const elsewhere = new RegExp(`sheet ${made.id} is in workspace ${team}, not in workspace ${personal(bob)}`);
        assert.match(toolError(await mcp.callTool({ name: 'get_sheet', arguments: { id: made.id, workspace_id: personal(bob) } }), 403, 'forbidden').error, elsewhere);
        const appended = ok(await mcp.callTool({ name: 'append_to_sheet', arguments: { id: made.id, html: '<p>more</p>', workspace_id: team } }));
        assert.deepEqual([appended.sheet.content.col1, appended.sheet.version, appended.sheet.workspace_id], ['<p>hi</p><p>more</p>', 2, team]);
        const refused = await mcp.callTool({ name: 'append_to_sheet', arguments: { id: made.id, html: '<p>not here</p>', workspace_id: personal(bob) } });
        assert.match(toolError(refused, 403, 'forbidden').error, elsewhere);
        assert.deepEqual((await expectOk(alice, 'GET', `/v1/sheets/${made.id}`)).sheet.content, { col1: '<p>hi</p><p>more</p>' }, 'the refused append wrote nothing');
        toolError(await mcp.callTool({ name: 'trash_sheet', arguments: { id: made.id, workspace_id: personal(bob) } }), 403, 'forbidden');
        assert.equal(ok(await mcp.callTool({ name: 'trash_sheet', arguments: { id: made.id, workspace_id: team } })).deleted, false);
        assert.equal(ok(await mcp.callTool({ name: 'restore_sheet', arguments: { id: made.id, workspace_id: team } })).sheet.workspace_id, team);
      } finally {
        await mcp.close();
      }
    });
  });
}
