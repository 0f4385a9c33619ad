import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { assertForbidden, makeTeam } from '../teams-helpers.js';

/** Knowledge entries and todos in a team workspace (issue 33): who lists, reads and writes them, and where they land. */
for (const dialect of dialects()) {
  describe(`teams: knowledge and todos [${dialect}]`, () => {
    const { s, users, beforeClose } = useServer(dialect, { users: { alice: 'pro', bob: 'pro', carol: 'pro', dave: 'pro' } });
    const { alice, bob, carol, dave } = users;
    let team = '';
    const personal = (u: TestUser) => `wsp_${u.userId.slice(4)}`;
    const call = (u: TestUser, method: string, path: string, body?: unknown) => s.req(method, path, { key: u.key, body });
    const sync = (u: TestUser, body: unknown) => call(u, 'POST', '/v1/todos', body);
    const todosOf = async (u: TestUser, query: string) => {
      const r = await call(u, 'GET', `/v1/todos${query}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.todos as any[];
    };

    before(async () => {
      team = await makeTeam(s, alice, 'Knowledge team', [
        [bob, 'editor'],
        [carol, 'viewer'],
      ]);
    });

    it('knowledge: saved into the team, listed and searched there only, read by members, written by editors', async () => {
      const saved = await call(alice, 'POST', '/v1/knowledge?type=solutions', { title: 'Pool exhausted', error: 'TimeoutError: pool exhausted', content: 'Raise max', workspace_id: team });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.solution.workspace_id, team);
      const id = saved.body.id as string;
      const events = (await s.events('knowledge.saved')).filter((e) => e.data.id === id);
      assert.deepEqual(
        events.map((e) => e.workspace_id),
        [team],
        "the event goes to the team's webhooks and streams",
      );
      const mine = await call(alice, 'POST', '/v1/knowledge?type=solutions', { title: 'Pool exhausted at home', error: 'TimeoutError: pool exhausted', content: 'Mine' });
      assert.equal(mine.body.solution.workspace_id, personal(alice));

      // Lists and searches: the team's entries with workspace_id=, the personal ones without (as before teams).
      const listed = await call(bob, 'GET', `/v1/knowledge?type=solutions&q=${encodeURIComponent('TimeoutError: pool exhausted')}&workspace_id=${team}`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.solutions.map((x: any) => [x.id, x.workspace_id]),
        [[id, team]],
      );
      const own = await call(alice, 'GET', '/v1/knowledge?type=solutions&q=pool');
      assert.deepEqual(
        own.body.solutions.map((x: any) => x.id),
        [mine.body.id],
        'the default list is the personal workspace only',
      );
      assert.deepEqual((await call(bob, 'GET', '/v1/knowledge?type=solutions&q=pool')).body.solutions, [], "bob's personal list holds none of the team's");

      // By id: any member reads it; a viewer may not write; an outsider gets 403 for it and 404 for an unknown id.
      const got = await call(carol, 'GET', `/v1/knowledge/${id}`);
      assert.equal(got.status, 200, JSON.stringify(got.body));
      assert.equal(got.body.solution.workspace_id, team);
      assertForbidden(await call(carol, 'PUT', `/v1/knowledge/${id}`, { title: 'viewer edit' }), 'editor');
      assertForbidden(await call(carol, 'DELETE', `/v1/knowledge/${id}`), 'editor');
      assertForbidden(await call(carol, 'POST', '/v1/knowledge?type=snippets', { title: 't', content: 'c', workspace_id: team }), 'editor');
      assertForbidden(await call(dave, 'GET', `/v1/knowledge/${id}`), 'viewer');
      assertForbidden(await call(dave, 'GET', `/v1/knowledge?workspace_id=${team}`), 'viewer');
      assertError(await call(dave, 'GET', '/v1/knowledge/sol_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
      assertError(await call(alice, 'GET', '/v1/knowledge?workspace_id=wsp_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found', /workspace/);
      assertError(await call(alice, 'GET', '/v1/knowledge?workspace_id=team'), 400, 'invalid_request', /workspace_id/);
      assertError(await call(bob, 'GET', `/v1/knowledge/${mine.body.id}`), 403, 'forbidden');

      const edited = await call(bob, 'PUT', `/v1/knowledge/${id}`, { content: 'Raise max to 50' });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.deepEqual([edited.body.solution.version, edited.body.solution.workspace_id], [2, team]);
      const named = (await s.events('knowledge.saved')).filter((e) => e.data.id === id).map((e) => [e.workspace_id, e.data.workspace_id, e.data.actor_id]);
      assert.deepEqual(
        named,
        [
          [team, team, alice.userId],
          [team, team, bob.userId],
        ],
        'each event names the member who acted',
      );
      assert.equal((await call(bob, 'DELETE', `/v1/knowledge/${id}`)).status, 200);
      assertError(await call(alice, 'GET', `/v1/knowledge/${id}`), 404, 'not_found');
    });

    it('todos: synced into the team, listed there only; an id of another workspace is refused and nothing is written', async () => {
      const made = await sync(alice, { workspace_id: team, project: 'p', todos: [{ content: 'Team task', status: 'pending' }] });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const teamTask = made.body.todos[0];
      assert.deepEqual([teamTask.content, teamTask.workspace_id], ['Team task', team]);
      assert.deepEqual(
        (await s.events('todos.synced')).filter((e) => e.data.todo_ids.includes(teamTask.id)).map((e) => e.workspace_id),
        [team],
      );
      const home = (await sync(alice, { project: 'p', todos: [{ content: 'Home task', status: 'pending' }] })).body.todos[0];
      assert.equal(home.workspace_id, personal(alice));

      assert.deepEqual(
        (await todosOf(carol, `?workspace_id=${team}`)).map((t) => t.id),
        [teamTask.id],
        'a viewer lists the team',
      );
      assert.deepEqual(
        (await todosOf(alice, '?project=p')).map((t) => t.id),
        [home.id],
        'the default list is personal only',
      );

      // The editor updates the team task by id.
      const moved = await sync(bob, { workspace_id: team, project: 'p', todos: [{ id: teamTask.id, content: 'Team task', status: 'in_progress' }] });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.deepEqual([moved.body.updated, moved.body.todos[0].status, moved.body.todos[0].version], [1, 'in_progress', 2]);

      // An id from another workspace: 403, and the whole sync writes nothing (not even its new element).
      const before = { team: await todosOf(alice, `?workspace_id=${team}`), home: await todosOf(alice, '') };
      const crossed = await sync(alice, {
        workspace_id: team,
        project: 'p',
        todos: [
          { content: 'Would be new', status: 'pending' },
          { id: home.id, content: 'Home task', status: 'completed' },
        ],
      });
      assertError(crossed, 403, 'forbidden', new RegExp(`${home.id} is in workspace ${personal(alice)}, not in workspace ${team}`));
      const back = await sync(alice, { project: 'p', todos: [{ id: teamTask.id, content: 'Team task', status: 'completed' }] });
      assertError(back, 403, 'forbidden', /not in workspace/);
      assertForbidden(await sync(dave, { project: 'p', todos: [{ id: teamTask.id, content: 'Team task', status: 'completed' }] }), 'editor');
      assertError(await sync(alice, { workspace_id: team, todos: [{ id: 'td_01jzzzzzzzzzzzzzzzzzzzzzzz', content: 'x', status: 'pending' }] }), 404, 'not_found');
      assert.deepEqual({ team: await todosOf(alice, `?workspace_id=${team}`), home: await todosOf(alice, '') }, before);

      // Roles: a viewer neither syncs nor deletes, an outsider neither lists nor deletes; the editor deletes.
      assertForbidden(await sync(carol, { workspace_id: team, todos: [{ content: 'viewer', status: 'pending' }] }), 'editor');
      assertForbidden(await call(carol, 'DELETE', `/v1/todos/${teamTask.id}`), 'editor');
      assertForbidden(await call(dave, 'GET', `/v1/todos?workspace_id=${team}`), 'viewer');
      assertForbidden(await call(dave, 'DELETE', `/v1/todos/${teamTask.id}`), 'editor');
      assertError(await call(dave, 'DELETE', '/v1/todos/td_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
      assert.equal((await call(bob, 'DELETE', `/v1/todos/${teamTask.id}`)).status, 200);
      assert.deepEqual(await todosOf(alice, `?workspace_id=${team}&project=p`), []);
    });

    it('alice and bob sync the same tasks into the team at once: one task per content, nothing lost', async () => {
      const shared = ['Write spec', 'Build', 'Test', 'Ship', 'Announce'];
      const runs = Array.from({ length: 20 }, (_, i) =>
        sync(i % 2 ? bob : alice, {
          workspace_id: team,
          project: 'race',
          todos: [...shared.map((content, j) => ({ content, status: (i + j) % 3 ? 'pending' : 'in_progress' })), { content: `Only run ${i}`, status: 'pending' }],
        }),
      );
      const answers = await Promise.all(runs);
      for (const r of answers) assert.equal(r.status, 200, JSON.stringify(r.body));
      const listed = await todosOf(carol, `?workspace_id=${team}&project=race`);
      const contents = listed.map((t) => t.content).sort();
      const wanted = [...shared, ...Array.from({ length: 20 }, (_, i) => `Only run ${i}`)].sort();
      assert.deepEqual(contents, wanted, 'exactly one task per content');
      assert.ok(listed.every((t) => t.workspace_id === team));
      assert.equal(
        answers.reduce((n, r) => n + r.body.created, 0),
        25,
        'each task was created by exactly one sync',
      );
      assert.deepEqual(await todosOf(alice, '?project=race'), [], 'nothing landed in a personal workspace');
    });

    it('MCP: the tools take workspace_id and their results say which workspace', async () => {
      const client = await httpClient(s, bob.key);
      beforeClose(() => client.close());
      const saved = ok(await client.callTool({ name: 'save_knowledge', arguments: { type: 'snippets', title: 'Retry helper', content: 'retry()', workspace_id: team } }));
      assert.equal(saved.snippet.workspace_id, team);
      const found = ok(await client.callTool({ name: 'search_knowledge', arguments: { q: 'Retry helper', type: 'snippets', workspace_id: team } }));
      assert.deepEqual(
        found.snippets.map((x: any) => [x.id, x.workspace_id]),
        [[saved.id, team]],
      );
      assert.deepEqual(ok(await client.callTool({ name: 'search_knowledge', arguments: { q: 'Retry helper', type: 'snippets' } })).snippets, []);
      const got = ok(await client.callTool({ name: 'get_knowledge', arguments: { id: saved.id, workspace_id: team } }));
      assert.equal(got.snippet.workspace_id, team);
      const elsewhere = toolError(await client.callTool({ name: 'get_knowledge', arguments: { id: saved.id, workspace_id: personal(bob) } }), 403, 'forbidden');
      assert.match(elsewhere.error, new RegExp(`is in workspace ${team}`));

      const synced = ok(await client.callTool({ name: 'sync_todos', arguments: { workspace_id: team, project: 'mcp', todos: [{ content: 'From MCP', status: 'pending' }] } }));
      assert.deepEqual(
        synced.todos.map((t: any) => [t.content, t.workspace_id]),
        [['From MCP', team]],
      );
      const listed = ok(await client.callTool({ name: 'list_todos', arguments: { workspace_id: team, project: 'mcp' } }));
      assert.deepEqual(
        listed.todos.map((t: any) => t.id),
        [synced.todos[0].id],
      );

      const viewer = await httpClient(s, carol.key);
      beforeClose(() => viewer.close());
      const refused = await viewer.callTool({ name: 'sync_todos', arguments: { workspace_id: team, todos: [{ content: 'No', status: 'pending' }] } });
      assert.match(toolErrorWithRole(refused, 'editor'), /editor/);
    });
  });
}

/** A tool's 403 for a workspace role: the REST body (with required_role) as its text. */
function toolErrorWithRole(r: unknown, role: string): string {
  const res = r as { isError?: boolean; content: { text: string }[] };
  assert.equal(res.isError, true);
  const body = JSON.parse(res.content[0]!.text);
  assert.deepEqual([body.status, body.code, body.required_role], [403, 'forbidden', role]);
  return body.error;
}
