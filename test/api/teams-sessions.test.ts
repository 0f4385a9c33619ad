import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { assertForbidden, makeTeam } from '../teams-helpers.js';

/** Sessions, handovers and the briefing in a team workspace (issue 33): where they land, who reads and writes them. */
for (const dialect of dialects()) {
  describe(`teams: sessions, handovers, briefing [${dialect}]`, () => {
    const { s, users, beforeClose } = useServer(dialect, { users: { alice: 'pro', bob: 'pro', carol: 'pro', dave: 'pro' } });
    const { alice, bob, carol, dave } = users;
    let team = '';
    const personal = (u: TestUser) => `wsp_${u.userId.slice(4)}`;
    const call = (u: TestUser | string, method: string, path: string, body?: unknown) => s.req(method, path, { key: typeof u === 'string' ? u : u.key, body });
    const okCall = async (u: TestUser | string, method: string, path: string, body?: unknown) => {
      const r = await call(u, method, path, body);
      assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const listed = async (u: TestUser | string, query = '') => ((await okCall(u, 'GET', `/v1/sessions${query}`)).sessions as any[]).map((x) => [x.title, x.workspace_id]);

    before(async () => {
      team = await makeTeam(s, alice, 'Sessions team', [
        [bob, 'editor'],
        [carol, 'viewer'],
      ]);
    });

    it('sessions: saved into the team, listed there only, read by members, written by editors', async () => {
      const made = await okCall(alice, 'POST', '/v1/sessions', { title: 'Team work', summary: 'Did the team thing', project: 'rocket', workspace_id: team });
      assert.equal(made.session.workspace_id, team);
      const saved = (await s.events('session.saved')).filter((e) => e.data.session_id === made.id);
      assert.deepEqual(
        saved.map((e) => [e.workspace_id, e.data.workspace_id, e.data.actor_id]),
        [[team, team, alice.userId]],
        "the team's event, naming alice",
      );
      const home = await okCall(alice, 'POST', '/v1/sessions', { title: 'Home work', summary: 'Mine', project: 'rocket' });
      assert.equal(home.session.workspace_id, personal(alice));

      assert.deepEqual(await listed(carol, `?workspace_id=${team}`), [['Team work', team]], 'a viewer lists the team');
      assert.deepEqual(await listed(alice), [['Home work', personal(alice)]], 'the default list is the personal workspace only');
      assert.deepEqual(await listed(alice, `?workspace_id=${personal(alice)}`), [['Home work', personal(alice)]]);
      assert.deepEqual(await listed(bob), [], "bob's personal list holds none of the team's");
      assert.deepEqual(await listed(bob, `?workspace_id=${team}&q=team&project=rocket`), [['Team work', team]], 'q and project within the team');

      // By id: members read, the editor changes it, the viewer may not; an outsider gets 403 for it, 404 for an unknown id.
      assert.equal((await okCall(carol, 'GET', `/v1/sessions/${made.id}`)).session.workspace_id, team);
      const patched = await okCall(bob, 'PATCH', `/v1/sessions/${made.id}`, { summary: 'Bob added to it' });
      assert.deepEqual([patched.session.summary, patched.session.workspace_id], ['Bob added to it', team]);
      const updated = (await s.events('session.updated')).filter((e) => e.data.session_id === made.id);
      assert.deepEqual(
        updated.map((e) => [e.workspace_id, e.data.actor_id]),
        [[team, bob.userId]],
      );
      assertForbidden(await call(carol, 'PATCH', `/v1/sessions/${made.id}`, { title: 'viewer edit' }), 'editor');
      assertForbidden(await call(carol, 'POST', '/v1/sessions', { title: 't', summary: 's', workspace_id: team }), 'editor');
      assertForbidden(await call(dave, 'GET', `/v1/sessions/${made.id}`), 'viewer');
      assertForbidden(await call(dave, 'PATCH', `/v1/sessions/${made.id}`, { title: 'outsider' }), 'editor');
      assertForbidden(await call(dave, 'GET', `/v1/sessions?workspace_id=${team}`), 'viewer');
      assertForbidden(await call(dave, 'POST', '/v1/sessions', { title: 't', summary: 's', workspace_id: team }), 'editor');
      assertError(await call(dave, 'GET', '/v1/sessions/ses_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
      assertError(await call(alice, 'GET', '/v1/sessions?workspace_id=wsp_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found', /workspace/);
      assertError(await call(alice, 'POST', '/v1/sessions', { title: 't', summary: 's', workspace_id: 'team' }), 400, 'invalid_request', /workspace_id/);
      assertError(await call(bob, 'GET', `/v1/sessions/${home.id}`), 403, 'forbidden', undefined);
      assert.equal((await okCall(alice, 'GET', `/v1/sessions/${made.id}`)).session.summary, 'Bob added to it');
    });

    it('PUT /sessions/external: one session per workspace and reference; a viewer may not save', async () => {
      const put = (u: TestUser | string, body: Record<string, unknown>) => call(u, 'PUT', '/v1/sessions/external/cc:shared-1', { title: 'Shared', summary: 's', ...body });
      const first = await put(bob, { workspace_id: team });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.session.workspace_id, team);
      const again = await put(alice, { workspace_id: team, summary: 'alice saved it again' });
      assert.deepEqual([again.status, again.body.id, again.body.created], [200, first.body.id, false], "another member's save updates the team's session");
      const mine = await put(alice, {});
      assert.deepEqual([mine.status, mine.body.session.workspace_id], [201, personal(alice)], 'the same reference in the personal workspace is another session');
      assert.notEqual(mine.body.id, first.body.id);
      assertForbidden(await put(carol, { workspace_id: team }), 'editor');
      assertForbidden(await put(dave, { workspace_id: team }), 'editor');
      assert.equal((await okCall(carol, 'GET', `/v1/sessions/${first.body.id}`)).session.summary, 'alice saved it again');
    });

    it('a key restricted to the team saves and lists there by default (the Claude Code plugin unchanged)', async () => {
      const key = (await okCall(bob, 'POST', '/v1/api-keys', { name: 'team plugin', workspace_id: team })).api_key as string;
      const saved = await call(key, 'PUT', '/v1/sessions/external/cc:plugin-1', { title: 'From the plugin', summary: 's', project: 'plug' });
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      assert.equal(saved.body.session.workspace_id, team);
      assert.deepEqual(await listed(key, '?project=plug'), [['From the plugin', team]]);
      assert.deepEqual(await listed(bob, '?project=plug'), [], "not in bob's personal workspace");
      const elsewhere = await call(key, 'GET', `/v1/sessions?workspace_id=${personal(bob)}`);
      assertError(elsewhere, 403, 'forbidden', new RegExp(`restricted to workspace ${team}`));
      const briefing = await okCall(key, 'GET', '/v1/briefing?project=plug');
      assert.equal(briefing.workspace_id, team);
    });

    it("handover and briefing: built from the session's workspace, its todos only", async () => {
      const ses = (await okCall(alice, 'POST', '/v1/sessions', { title: 'Launch prep', summary: 'Team summary', project: 'launch', workspace_id: team })).session;
      await okCall(bob, 'POST', '/v1/todos', { workspace_id: team, project: 'launch', todos: [{ content: 'Team todo', status: 'pending' }] });
      await okCall(alice, 'POST', '/v1/todos', { project: 'launch', todos: [{ content: 'Personal todo', status: 'pending' }] });
      const homeSes = (await okCall(alice, 'POST', '/v1/sessions', { title: 'Home prep', summary: 'Home summary', project: 'launch' })).session;
      const homeHandover = await okCall(alice, 'POST', '/v1/sessions/handover', { session_id: homeSes.id, next_steps: ['Home step'] });
      assert.equal(homeHandover.workspace_id, personal(alice));

      assertForbidden(await call(carol, 'POST', '/v1/sessions/handover', { session_id: ses.id }), 'editor');
      assertForbidden(await call(dave, 'POST', '/v1/sessions/handover', { session_id: ses.id }), 'editor');
      assertError(
        await call(bob, 'POST', '/v1/sessions/handover', { session_id: ses.id, workspace_id: personal(bob) }),
        403,
        'forbidden',
        new RegExp(`${ses.id} is in workspace ${team}, not in workspace ${personal(bob)}`),
      );
      const h = await okCall(bob, 'POST', '/v1/sessions/handover', { session_id: ses.id, next_steps: ['Team step'], workspace_id: team });
      assert.deepEqual([h.workspace_id, h.sheet.workspace_id], [team, team]);
      assert.match(h.sheet.content.col2, /Team todo/);
      assert.doesNotMatch(h.sheet.content.col2, /Personal todo/, "another workspace's todos stay out of the handover");
      const events = (await s.events()).filter((e) => (e.event === 'session.handover' || e.event === 'sheet.created') && (e.data.handover_id ?? e.data.sheet_id) === h.handover_id);
      assert.deepEqual(events.map((e) => [e.event, e.workspace_id, e.data.actor_id]).sort(), [
        ['session.handover', team, bob.userId],
        ['sheet.created', team, bob.userId],
      ]);
      assert.equal((await okCall(carol, 'GET', `/v1/sheets/${h.handover_id}`)).sheet.workspace_id, team, 'members read the handover sheet');

      // The briefing reads one workspace: the viewer's of the team, alice's default of her personal one.
      const teamBrief = await okCall(carol, 'GET', `/v1/briefing?project=launch&workspace_id=${team}`);
      assert.equal(teamBrief.workspace_id, team);
      assert.equal(teamBrief.handover.handover_id, h.handover_id);
      assert.deepEqual(
        teamBrief.todos.map((t: any) => t.content),
        ['Team todo'],
      );
      assert.match(teamBrief.text, /Team step/);
      assert.doesNotMatch(teamBrief.text, /Home step|Personal todo/);
      const homeBrief = await okCall(alice, 'GET', '/v1/briefing?project=launch');
      assert.deepEqual([homeBrief.workspace_id, homeBrief.handover.handover_id], [personal(alice), homeHandover.handover_id]);
      assert.deepEqual(
        homeBrief.todos.map((t: any) => t.content),
        ['Personal todo'],
      );
      assert.doesNotMatch(homeBrief.text, /Team step|Team todo/);
      assertForbidden(await call(dave, 'GET', `/v1/briefing?project=launch&workspace_id=${team}`), 'viewer');
      assertError(await call(alice, 'GET', '/v1/briefing?project=launch&workspace_id=wsp_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found', /workspace/);
      const none = await okCall(dave, 'GET', '/v1/briefing?project=launch');
      assert.deepEqual([none.handover, none.todos], [null, []], "an outsider's own briefing has nothing of the team");
    });

    it('MCP: the session tools take workspace_id and their results say which workspace', async () => {
      const client = await httpClient(s, bob.key);
      beforeClose(() => client.close());
      const saved = ok(await client.callTool({ name: 'save_session', arguments: { title: 'MCP session', summary: 'via MCP', project: 'mcp', workspace_id: team } }));
      assert.equal(saved.session.workspace_id, team);
      const list = ok(await client.callTool({ name: 'list_sessions', arguments: { project: 'mcp', workspace_id: team } }));
      assert.deepEqual(
        list.sessions.map((x: any) => [x.id, x.workspace_id]),
        [[saved.id, team]],
      );
      assert.deepEqual(ok(await client.callTool({ name: 'list_sessions', arguments: { project: 'mcp' } })).sessions, []);
      assert.equal(ok(await client.callTool({ name: 'get_session', arguments: { id: saved.id, workspace_id: team } })).session.workspace_id, team);
      const wrong = toolError(await client.callTool({ name: 'get_session', arguments: { id: saved.id, workspace_id: personal(bob) } }), 403, 'forbidden');
      assert.match(wrong.error, new RegExp(`is in workspace ${team}`));
      const h = ok(await client.callTool({ name: 'create_handover', arguments: { session_id: saved.id, next_steps: ['Next'] } }));
      assert.equal(h.workspace_id, team, "the handover lands in the session's workspace");
      const latest = ok(await client.callTool({ name: 'get_latest_handover', arguments: { project: 'mcp', workspace_id: team } }));
      assert.deepEqual([latest.handover_id, latest.workspace_id], [h.handover_id, team]);
      toolError(await client.callTool({ name: 'get_latest_handover', arguments: { project: 'mcp' } }), 404, 'not_found');
      const brief = ok(await client.callTool({ name: 'get_briefing', arguments: { project: 'mcp', workspace_id: team } }));
      assert.deepEqual([brief.workspace_id, brief.handover.handover_id], [team, h.handover_id]);

      const viewer = await httpClient(s, carol.key);
      beforeClose(() => viewer.close());
      const refused = await viewer.callTool({ name: 'save_session', arguments: { title: 't', summary: 's', workspace_id: team } });
      const body = JSON.parse((refused as { content: { text: string }[] }).content[0]!.text);
      assert.deepEqual([body.status, body.code, body.required_role], [403, 'forbidden', 'editor']);
    });
  });
}
