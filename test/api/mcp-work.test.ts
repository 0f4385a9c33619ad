import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { manualClock } from '../../src/clock.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, sameErrorAsRest, toolError, without } from '../mcp-helpers.js';

/** Sessions, handovers, knowledge, todos, work time and stats over MCP, checked against REST. */
for (const dialect of dialects()) {
  describe(`MCP tools for sessions, knowledge, todos, work time and stats [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-03-10T12:00:00.000Z'));
    let alice: { key: string; userId: string; personalWorkspace: string };
    let bob: { key: string; userId: string; personalWorkspace: string };
    let mcp: Client;
    const { s, beforeClose } = useServer(dialect, { clock });
    before(async () => {
      alice = await s.user('business'); // this file makes well over pro's 100 requests a minute
      bob = await s.user('pro');
      mcp = await httpClient(s, alice.key);
    });
    beforeClose(() => mcp.close());
    const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
    const rest = (method: string, path: string, body?: unknown) => s.req(method, path, { key: alice.key, body });

    it('save_session, list_sessions, get_session: same records and session.saved events as REST', async () => {
      const input = { title: 'Auth refactor', summary: 'Moved auth to hooks.', project: 'api', tags: ['auth'], files_changed: ['src/auth.ts'] };
      const viaMcp = ok(await call('save_session', input));
      const viaRest = (await rest('POST', '/v1/sessions', input)).body;
      assert.deepEqual(without(viaMcp.session, 'id'), without(viaRest.session, 'id'));
      assert.deepEqual((await rest('GET', `/v1/sessions/${viaMcp.id}`)).body.session, viaMcp.session);
      const saved = (await s.events('session.saved')).filter((e) => e.workspace_id === alice.personalWorkspace);
      const mine = { workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId };
      assert.deepEqual(
        saved.map((e) => e.data),
        [
          { session_id: viaMcp.id, title: 'Auth refactor', ...mine },
          { session_id: viaRest.id, title: 'Auth refactor', ...mine },
        ],
      );

      const page = ok(await call('list_sessions', { project: 'api', limit: 1 }));
      assert.deepEqual([page.total, page.has_more, page.sessions[0].id], [2, true, viaRest.id]);
      assert.deepEqual(without(page, 'has_more', 'next'), (await rest('GET', '/v1/sessions?project=api&limit=1&fields=title,project,tags,createdAt,workspace_id')).body);
      assert.equal(ok(await call('list_sessions', { q: 'hooks', offset: 1 })).has_more, false);
      assert.deepEqual(ok(await call('get_session', { id: viaMcp.id })).session, viaMcp.session);

      sameErrorAsRest(await call('save_session', { title: 'x' }), await rest('POST', '/v1/sessions', { title: 'x' }));
      sameErrorAsRest(await call('get_session', { id: 'ses_nope' }), await rest('GET', '/v1/sessions/ses_nope'));
    });

    it('create_handover builds the same sheet as REST; the handover resource, tool and resume_work prompt find the latest', async () => {
      const { id: sessionId } = ok(await call('save_session', { title: 'Billing', summary: 'Added invoices.', project: 'shop' }));
      ok(
        await call('sync_todos', {
          project: 'shop',
          todos: [
            { content: 'Add VAT', status: 'in_progress' },
            { content: 'Old', status: 'completed' },
          ],
        }),
      );
      const args = { session_id: sessionId, next_steps: ['Wire VAT'], notes: 'Ask about EU rules.' };
      const viaRest = (await rest('POST', '/v1/sessions/handover', args)).body;
      clock.advance(1000);
      const viaMcp = ok(await call('create_handover', args));
      assert.equal(viaMcp.session_id, sessionId);
      assert.deepEqual(without(viaMcp.sheet, 'id', 'createdAt', 'updatedAt'), without(viaRest.sheet, 'id', 'createdAt', 'updatedAt'));
      assert.equal(viaMcp.sheet.folder, 'Handover');
      const evs = (await s.events('session.handover')).filter((e) => e.data.session_id === sessionId);
      assert.deepEqual(
        evs.map((e) => e.data.handover_id),
        [viaRest.handover_id, viaMcp.handover_id],
      );
      assert.equal((await s.events('sheet.created')).filter((e) => e.data.sheet_id === viaMcp.handover_id).length, 1);
      sameErrorAsRest(await call('create_handover', { session_id: 'ses_nope' }), await rest('POST', '/v1/sessions/handover', { session_id: 'ses_nope' }));

      const latest = ok(await call('get_latest_handover', { project: 'shop' }));
      assert.equal(latest.handover_id, viaMcp.handover_id);
      const read = await mcp.readResource({ uri: 'handover://shop/latest' });
      assert.equal(JSON.parse((read.contents[0] as { text: string }).text).handover_id, viaMcp.handover_id);
      // Trashing the newest falls back to the one before it.
      await rest('DELETE', `/v1/sheets/${viaMcp.handover_id}`);
      assert.equal(ok(await call('get_latest_handover', { project: 'shop' })).handover_id, viaRest.handover_id);
      assert.match(toolError(await call('get_latest_handover', { project: 'nothing' }), 404, 'not_found').error, /no handover for project nothing/);
      await assert.rejects(mcp.readResource({ uri: 'handover://nothing/latest' }), /no handover for project nothing/);

      const prompt = await mcp.getPrompt({ name: 'resume_work', arguments: { project: 'shop' } });
      const text = (prompt.messages[0].content as { text: string }).text;
      assert.match(text, new RegExp(`sheet ${viaRest.handover_id}`));
      assert.match(text, /Wire VAT/);
      assert.match(text, /\[in_progress\] Add VAT/);
      assert.doesNotMatch(text, /\bOld\b/);
      const empty = await mcp.getPrompt({ name: 'resume_work', arguments: { project: 'new' } });
      assert.match((empty.messages[0].content as { text: string }).text, /no handover for this project yet[\s\S]*Open todos \(0\)/);
      assert.ok((await mcp.listPrompts()).prompts.some((p) => p.name === 'resume_work' && p.arguments?.[0]?.name === 'project'));
    });

    it('save_knowledge and search_knowledge: both kinds, totals, knowledge.saved; get/update/delete like REST', async () => {
      const sol = ok(await call('save_knowledge', { type: 'solutions', title: 'EADDRINUSE', error: 'listen EADDRINUSE :::8787', content: 'Kill the old server.', language: 'ts' }));
      const viaRest = (await s.req('POST', '/v1/knowledge?type=solutions', { key: alice.key, body: { title: 'EADDRINUSE 2', error: 'listen EADDRINUSE', content: 'Change PORT.' } })).body;
      const snp = ok(await call('save_knowledge', { type: 'snippets', title: 'debounce', content: 'function debounce() {}', description: 'rate-limit calls' }));
      assert.equal(sol.type, 'solution');
      assert.deepEqual(Object.keys(sol).sort(), Object.keys(viaRest).sort());
      assert.deepEqual((await rest('GET', `/v1/knowledge/${sol.id}`)).body.solution, sol.solution);
      const saved = (await s.events('knowledge.saved')).filter((e) => e.workspace_id === alice.personalWorkspace).map((e) => e.data);
      const mine = { workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId };
      assert.deepEqual(saved, [
        { type: 'solution', id: sol.id, title: 'EADDRINUSE', ...mine },
        { type: 'solution', id: viaRest.id, title: 'EADDRINUSE 2', ...mine },
        { type: 'snippet', id: snp.id, title: 'debounce', ...mine },
      ]);

      const found = ok(await call('search_knowledge', { q: 'eaddrinuse', limit: 1 }));
      assert.deepEqual(
        found.solutions.map((x: any) => x.id),
        [viaRest.id],
      );
      assert.deepEqual(found.solutions_page, { total: 2, has_more: true });
      assert.deepEqual(found.snippets_page, { total: 0, has_more: false });
      const restFound = (await s.req('GET', '/v1/knowledge?q=eaddrinuse&limit=1&fields=title,language,tags,createdAt,version,workspace_id', { key: alice.key })).body;
      assert.deepEqual(without(found, 'solutions_page', 'snippets_page'), restFound);
      const snippets = ok(await call('search_knowledge', { type: 'snippets' }));
      assert.deepEqual([snippets.snippets.length, snippets.solutions, snippets.solutions_page], [1, undefined, undefined]);

      assert.equal(ok(await call('get_knowledge', { id: snp.id })).snippet.description, 'rate-limit calls');
      assert.equal(ok(await call('update_knowledge', { id: snp.id, language: 'js' })).snippet.language, 'js');
      assert.deepEqual(ok(await call('delete_knowledge', { id: snp.id })), { success: true, id: snp.id, type: 'snippet', deleted: true });
      assert.equal((await rest('GET', `/v1/knowledge/${snp.id}`)).status, 404);

      const wrongType = { type: 'notes', title: 'a', content: 'b' };
      sameErrorAsRest(await call('save_knowledge', wrongType), await s.req('POST', '/v1/knowledge?type=notes', { key: alice.key, body: { title: 'a', content: 'b' } }));
      const snippetWithError = { title: 'a', content: 'b', error: 'x' };
      sameErrorAsRest(await call('save_knowledge', { type: 'snippets', ...snippetWithError }), await s.req('POST', '/v1/knowledge?type=snippets', { key: alice.key, body: snippetWithError }));
      sameErrorAsRest(await call('delete_knowledge', { id: snp.id }), await rest('DELETE', `/v1/knowledge/${snp.id}`));
    });

    it('sync_todos and list_todos: same matching and results as REST; delete_todo; bad input rolls back', async () => {
      const first = ok(
        await call('sync_todos', {
          project: 'cli',
          todos: [
            { content: 'Parse args', status: 'pending', priority: 'high' },
            { content: 'Docs', status: 'pending' },
          ],
        }),
      );
      assert.deepEqual([first.created, first.updated], [2, 0]);
      const second = (await rest('POST', '/v1/todos', { project: 'cli', todos: [{ content: ' Parse args ', status: 'completed' }] })).body;
      assert.deepEqual([second.created, second.updated], [0, 1]);
      const listed = ok(await call('list_todos', { project: 'cli', status: 'pending' }));
      assert.deepEqual([listed.total, listed.has_more, listed.todos.map((x: any) => x.content)], [1, false, ['Docs']]);
      assert.deepEqual(without(listed, 'total', 'has_more'), (await rest('GET', '/v1/todos?project=cli&status=pending')).body);

      const before = (await rest('GET', '/v1/todos?project=cli')).body.todos;
      const bad = {
        project: 'cli',
        todos: [
          { content: 'New', status: 'pending' },
          { id: 'td_missing', content: 'x', status: 'pending' },
        ],
      };
      sameErrorAsRest(await call('sync_todos', bad), await rest('POST', '/v1/todos', bad));
      sameErrorAsRest(await call('sync_todos', { todos: [{ content: 'x', status: 'done' }] }), await rest('POST', '/v1/todos', { todos: [{ content: 'x', status: 'done' }] }));
      assert.deepEqual((await rest('GET', '/v1/todos?project=cli')).body.todos, before, 'a failed sync changes nothing');

      const docs = listed.todos[0].id;
      assert.deepEqual(ok(await call('delete_todo', { id: docs })), { success: true, id: docs, deleted: true });
      sameErrorAsRest(await call('delete_todo', { id: docs }), await rest('DELETE', `/v1/todos/${docs}`));
    });

    it("argument errors of list_sessions, search_knowledge, get_knowledge, update_knowledge and list_todos are REST's", async () => {
      const sol = (await rest('POST', '/v1/knowledge?type=solutions', { title: 'E', content: 'fix' })).body.id;
      const long = 'w'.repeat(201);
      const cases: [string, Record<string, unknown>, string, string, unknown?][] = [
        ['list_sessions', { limit: 1.5 }, 'GET', '/v1/sessions?limit=1.5'],
        ['list_sessions', { offset: -1 }, 'GET', '/v1/sessions?offset=-1'],
        ['list_sessions', { q: long }, 'GET', `/v1/sessions?q=${long}`],
        ['search_knowledge', { type: 'notes' }, 'GET', '/v1/knowledge?type=notes'],
        ['search_knowledge', { limit: 'ten' }, 'GET', '/v1/knowledge?limit=ten'],
        ['get_knowledge', { id: 'sol_01jzzzzzzzzzzzzzzzzzzzzzzz' }, 'GET', '/v1/knowledge/sol_01jzzzzzzzzzzzzzzzzzzzzzzz'],
        ['update_knowledge', { id: sol, title: '' }, 'PUT', `/v1/knowledge/${sol}`, { title: '' }],
        ['update_knowledge', { id: 'snp_01jzzzzzzzzzzzzzzzzzzzzzzz', title: 'x' }, 'PUT', '/v1/knowledge/snp_01jzzzzzzzzzzzzzzzzzzzzzzz', { title: 'x' }],
        ['list_todos', { status: 'done' }, 'GET', '/v1/todos?status=done'],
      ];
      for (const [name, args, method, path, body] of cases) {
        const r = await call(name, args);
        assert.equal((r as { isError?: boolean }).isError, true, `${name} ${JSON.stringify(args)} should fail`);
        sameErrorAsRest(r, await rest(method, path, body));
      }
      assert.match(toolError(await call('list_todos', { status: 'done' }), 400, 'invalid_request').error, /status must be one of pending, in_progress, completed/);
    });

    it("another account's session, knowledge entry and todo: the same 403 as REST, and nothing changes", async () => {
      const asBob = (method: string, path: string, body?: unknown) => s.req(method, path, { key: bob.key, body });
      const ses = (await asBob('POST', '/v1/sessions', { title: 'bob work', summary: 'private', project: 'bobs' })).body.id;
      const sol = (await asBob('POST', '/v1/knowledge?type=solutions', { title: 'bob fix', content: 'secret' })).body.id;
      const snp = (await asBob('POST', '/v1/knowledge?type=snippets', { title: 'bob code', content: 'x()' })).body.id;
      const todo = (await asBob('POST', '/v1/todos', { project: 'bobs', todos: [{ content: 'bob task', status: 'pending' }] })).body.todos[0].id;
      const before = (await s.events()).length;
      const cases: [string, Record<string, unknown>, string, string, unknown?][] = [
        ['get_session', { id: ses }, 'GET', `/v1/sessions/${ses}`],
        ['create_handover', { session_id: ses }, 'POST', '/v1/sessions/handover', { session_id: ses }],
        ['get_knowledge', { id: sol }, 'GET', `/v1/knowledge/${sol}`],
        ['update_knowledge', { id: snp, title: 'mine now' }, 'PUT', `/v1/knowledge/${snp}`, { title: 'mine now' }],
        ['delete_knowledge', { id: sol }, 'DELETE', `/v1/knowledge/${sol}`],
        ['delete_todo', { id: todo }, 'DELETE', `/v1/todos/${todo}`],
        ['sync_todos', { todos: [{ id: todo, content: 'taken', status: 'completed' }] }, 'POST', '/v1/todos', { todos: [{ id: todo, content: 'taken', status: 'completed' }] }],
      ];
      for (const [name, args, method, path, body] of cases) {
        const r = await call(name, args);
        toolError(r, 403, 'forbidden');
        sameErrorAsRest(r, await rest(method, path, body));
      }
      assert.equal((await s.events()).length, before);
      assert.equal((await asBob('GET', `/v1/knowledge/${snp}`)).body.snippet.title, 'bob code');
      assert.deepEqual(
        (await asBob('GET', '/v1/todos?project=bobs')).body.todos.map((t: any) => [t.content, t.status]),
        [['bob task', 'pending']],
      );
      assert.equal((await asBob('GET', `/v1/knowledge/${sol}`)).status, 200);
      // Lists only ever show the caller's own records.
      assert.equal(ok(await call('list_sessions', { project: 'bobs' })).total, 0);
      assert.equal(ok(await call('list_todos', { project: 'bobs' })).total, 0);
      assert.equal(ok(await call('search_knowledge', { q: 'bob' })).solutions_page.total, 0);
    });

    it('sessions saved without a project: get_latest_handover {project: ""} and handover:///latest agree', async () => {
      const { resourceTemplates } = await mcp.listResourceTemplates();
      assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'handover:///latest'));
      const none = await call('get_latest_handover', { project: '' });
      assert.equal(toolError(none, 404, 'not_found').error, 'no handover for sessions without a project');
      await assert.rejects(mcp.readResource({ uri: 'handover:///latest' }), /no handover for sessions without a project/);

      const { id: sessionId } = ok(await call('save_session', { title: 'loose ends', summary: 'No project.' }));
      const made = ok(await call('create_handover', { session_id: sessionId, next_steps: ['tidy'] }));
      const viaTool = ok(await call('get_latest_handover', { project: '' }));
      assert.equal(viaTool.handover_id, made.handover_id);
      const read = await mcp.readResource({ uri: 'handover:///latest' });
      assert.equal(read.contents[0].uri, 'handover:///latest');
      assert.deepEqual(JSON.parse((read.contents[0] as { text: string }).text), without(viaTool, 'success'));
    });

    it('log_work_time and get_stats match REST', async () => {
      const log = ok(await call('log_work_time', { hours: 1.5, project: 'cli', description: 'parser', date: '2026-03-09' }));
      assert.deepEqual(without(log.log, 'id', 'createdAt'), { project: 'cli', hours: 1.5, description: 'parser', date: '2026-03-09', workspace_id: `wsp_${alice.userId.slice(4)}` });
      await s.req('POST', '/v1/stats?action=worktime', { key: alice.key, body: { hours: 2 } });
      const stats = ok(await call('get_stats', {}));
      assert.deepEqual(stats, (await rest('GET', '/v1/stats')).body);
      assert.equal(stats.stats.worktime.total_hours, 3.5);
      assert.deepEqual(
        stats.stats.recent_work_logs.map((l: any) => l.hours),
        [2, 1.5],
      );
      for (const bad of [{ hours: 0 }, { hours: 25 }, { hours: 1, date: '2026-02-30' }, {}]) {
        sameErrorAsRest(await call('log_work_time', bad), await s.req('POST', '/v1/stats?action=worktime', { key: alice.key, body: bad }));
      }
    });
  });
}
