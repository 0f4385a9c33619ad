import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

for (const dialect of dialects()) {
  describe(`todos [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-04-02T08:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const sync = (body: unknown, key = alice.key) => s.req('POST', '/v1/todos', { key, body });
    const list = async (query = '', key = alice.key) => (await s.req('GET', `/v1/todos${query}`, { key })).body.todos as any[];

    it('creates tasks and returns every field, createdAt in epoch milliseconds', async () => {
      const r = await sync({
        project: 'alpha',
        todos: [
          { content: '  Write tests  ', status: 'in_progress', priority: 'high', activeForm: 'Writing tests' },
          { content: 'Ship', status: 'pending' },
        ],
      });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['created', 'success', 'todos', 'updated']);
      assert.equal(r.body.success, true);
      assert.equal(r.body.created, 2);
      assert.equal(r.body.updated, 0);
      assert.equal(r.body.todos.length, 2);
      const [ship, tests] = r.body.todos;
      assert.deepEqual(Object.keys(tests).sort(), ['activeForm', 'content', 'createdAt', 'id', 'priority', 'project', 'status', 'version', 'workspace_id']);
      assert.equal(tests.workspace_id, `wsp_${alice.userId.slice(4)}`, 'a personal task is in the personal workspace');
      assert.match(tests.id, /^td_[0-9a-z]{26}$/);
      assert.equal(tests.content, 'Write tests', 'content is stored trimmed');
      assert.equal(tests.status, 'in_progress');
      assert.equal(tests.project, 'alpha');
      assert.equal(tests.priority, 'high');
      assert.equal(tests.activeForm, 'Writing tests');
      assert.equal(tests.createdAt, Date.parse('2026-04-02T08:00:00.000Z'));
      assert.equal(Number.isInteger(tests.createdAt), true);
      assert.deepEqual(
        { ...ship, id: undefined },
        { id: undefined, content: 'Ship', status: 'pending', project: 'alpha', priority: 'medium', activeForm: null, createdAt: tests.createdAt, version: 1, workspace_id: tests.workspace_id },
      );
      // todos.synced is an extension beyond the spec's event list (docs/webhooks.md), for the console's live board.
      const synced = (await s.events('todos.synced')).filter((e) => e.workspace_id === alice.personalWorkspace);
      assert.equal(synced.length, 1);
      assert.deepEqual(
        { ...synced[0].data, todo_ids: [...synced[0].data.todo_ids].sort() },
        { project: 'alpha', created: 2, updated: 0, todo_ids: [tests.id, ship.id].sort(), workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId },
      );
    });

    it('matches by project + trimmed content, by id, and leaves other tasks alone', async () => {
      const bob = await s.user('free');
      const first = await sync(
        {
          project: 'p',
          todos: [
            { content: 'A', status: 'pending', priority: 'low', activeForm: 'Doing A' },
            { content: 'B', status: 'pending' },
          ],
        },
        bob.key,
      );
      const a = first.body.todos.find((t: any) => t.content === 'A');
      const b = first.body.todos.find((t: any) => t.content === 'B');
      await sync({ project: 'other', todos: [{ content: 'A', status: 'pending' }] }, bob.key);
      clock.advance(1000);
      const r = await sync(
        {
          project: 'p',
          todos: [
            { content: ' A ', status: 'completed' },
            { id: b.id, content: 'B renamed', status: 'in_progress', priority: 'high' },
            { content: 'C', status: 'pending' },
          ],
        },
        bob.key,
      );
      assert.equal(r.status, 200);
      assert.equal(r.body.created, 1);
      assert.equal(r.body.updated, 2);
      assert.deepEqual(
        r.body.todos.map((t: any) => [t.content, t.status, t.priority, t.activeForm]),
        [
          ['C', 'pending', 'medium', null],
          ['B renamed', 'in_progress', 'high', null],
          ['A', 'completed', 'low', 'Doing A'],
        ],
      );
      assert.equal(r.body.todos.find((t: any) => t.content === 'A').id, a.id, 'matched, not duplicated');
      assert.equal(r.body.todos.find((t: any) => t.content === 'A').createdAt, a.createdAt, 'createdAt is kept on update');
      const other = await list('?project=other', bob.key);
      assert.deepEqual(
        other.map((t: any) => [t.content, t.status]),
        [['A', 'pending']],
        'same content in another project is a different task',
      );
      assert.equal((await list('', bob.key)).length, 4);
    });

    it('sees earlier elements of the same batch, and an id match keeps its project', async () => {
      const frank = await s.user('free');
      const r = await sync(
        {
          project: 'q',
          todos: [
            { content: 'dup', status: 'pending' },
            { content: 'dup ', status: 'completed', activeForm: 'Duping' },
          ],
        },
        frank.key,
      );
      assert.deepEqual([r.body.created, r.body.updated], [1, 1]);
      assert.deepEqual(
        r.body.todos.map((t: any) => [t.content, t.status, t.activeForm]),
        [['dup', 'completed', 'Duping']],
      );
      const id = r.body.todos[0].id;
      const moved = await sync({ project: 'elsewhere', todos: [{ id, content: 'dup', status: 'in_progress', activeForm: null }] }, frank.key);
      assert.deepEqual([moved.body.created, moved.body.updated, moved.body.todos], [0, 1, []]);
      assert.deepEqual(
        (await list('?project=q', frank.key)).map((t: any) => [t.id, t.status, t.activeForm]),
        [[id, 'in_progress', null]],
      );
    });

    it('treats an omitted project as "no project" (empty string)', async () => {
      const carol = await s.user('free');
      const r = await sync({ todos: [{ content: 'loose', status: 'pending' }] }, carol.key);
      assert.equal(r.body.todos[0].project, '');
      await sync({ project: 'x', todos: [{ content: 'loose', status: 'pending' }] }, carol.key);
      const again = await sync({ project: '', todos: [{ content: 'loose', status: 'completed' }] }, carol.key);
      assert.deepEqual([again.body.created, again.body.updated], [0, 1]);
      assert.deepEqual(
        (await list('?project=', carol.key)).map((t: any) => t.status),
        ['completed'],
      );
    });

    it('filters the list by status and project', async () => {
      const dave = await s.user('free');
      await sync(
        {
          project: 'p1',
          todos: [
            { content: 'a', status: 'pending' },
            { content: 'b', status: 'completed' },
          ],
        },
        dave.key,
      );
      await sync({ project: 'p2', todos: [{ content: 'c', status: 'pending' }] }, dave.key);
      assert.deepEqual((await list('?status=pending', dave.key)).map((t) => t.content).sort(), ['a', 'c']);
      assert.deepEqual(
        (await list('?status=pending&project=p1', dave.key)).map((t) => t.content),
        ['a'],
      );
      assert.deepEqual(
        (await list('?project=p2', dave.key)).map((t) => t.content),
        ['c'],
      );
      assert.deepEqual(await list('?project=none', dave.key), []);
      assertError(await s.req('GET', '/v1/todos?status=done', { key: dave.key }), 400, 'invalid_request', /status.*pending, in_progress, completed/);
    });

    it('is all or nothing: one bad id rejects the whole batch', async () => {
      const erin = await s.user('free');
      const mallory = await s.user('free');
      const mine = (await sync({ project: 'z', todos: [{ content: 'keep', status: 'pending' }] }, erin.key)).body.todos[0];
      const theirs = (await sync({ todos: [{ content: 'theirs', status: 'pending' }] }, mallory.key)).body.todos[0];
      const before = await list('', erin.key);
      const unknown = 'td_00000000000000000000000000';
      assertError(
        await sync(
          {
            project: 'z',
            todos: [
              { content: 'new one', status: 'pending' },
              { id: mine.id, content: 'keep', status: 'completed' },
              { id: unknown, content: 'x', status: 'pending' },
            ],
          },
          erin.key,
        ),
        404,
        'not_found',
        unknown,
      );
      assertError(
        await sync(
          {
            project: 'z',
            todos: [
              { content: 'new two', status: 'pending' },
              { id: mine.id, content: 'keep', status: 'completed' },
              { id: theirs.id, content: 'x', status: 'pending' },
            ],
          },
          erin.key,
        ),
        403,
        'forbidden',
        theirs.id,
      );
      assertError(
        await sync(
          {
            project: 'z',
            todos: [
              { content: 'new three', status: 'pending' },
              { content: 'bad', status: 'done' },
            ],
          },
          erin.key,
        ),
        400,
        'invalid_request',
        /todos\.1\.status/,
      );
      assert.deepEqual(await list('', erin.key), before, 'nothing changed');
      assert.deepEqual(
        (await list('', mallory.key)).map((t) => t.content),
        ['theirs'],
      );
    });

    it('rejects bad input with 400 naming the field, and caps the batch at 500', async () => {
      assertError(await sync({}), 400, 'invalid_request', /todos/);
      assertError(await sync({ todos: 'x' }), 400, 'invalid_request', /todos/);
      assertError(await sync({ todos: [{ status: 'pending' }] }), 400, 'invalid_request', /todos\.0\.content/);
      assertError(await sync({ todos: [{ content: '   ', status: 'pending' }] }), 400, 'invalid_request', /content must not be empty/);
      assertError(await sync({ todos: [{ content: 'a' }] }), 400, 'invalid_request', /todos\.0\.status/);
      assertError(await sync({ todos: [{ content: 'a', status: 'pending', priority: 'urgent' }] }), 400, 'invalid_request', /priority must be one of low, medium, high/);
      assertError(await sync({ todos: [], project: 5 }), 400, 'invalid_request', /project/);
      const many = Array.from({ length: 501 }, (_, i) => ({ content: `t${i}`, status: 'pending' }));
      assertError(await sync({ todos: many }), 400, 'invalid_request', /at most 500/);
      const full = await sync({ project: 'bulk', todos: many.slice(0, 500) });
      assert.equal(full.status, 200);
      assert.equal(full.body.created, 500);
    });

    it('deletes one task', async () => {
      const t = (
        await sync({
          project: 'del',
          todos: [
            { content: 'gone', status: 'pending' },
            { content: 'stays', status: 'pending' },
          ],
        })
      ).body.todos;
      const gone = t.find((x: any) => x.content === 'gone');
      const r = await s.req('DELETE', `/v1/todos/${gone.id}`, { key: alice.key });
      assert.deepEqual(r.body, { success: true, id: gone.id, deleted: true });
      assert.deepEqual(
        (await list('?project=del')).map((x) => x.content),
        ['stays'],
      );
      assertError(await s.req('DELETE', `/v1/todos/${gone.id}`, { key: alice.key }), 404, 'not_found');
    });

    it('401/403/404 on every route that takes an id', async () => {
      const id = (await sync({ project: 'sec', todos: [{ content: 'sec', status: 'pending' }] })).body.todos[0].id;
      const unknown = 'td_00000000000000000000000000';
      await assertIdRouteSecurity(s, { method: 'DELETE', path: (x) => `/v1/todos/${x}` }, alice, id, unknown);
      // POST /todos takes ids in the body: same matrix.
      const body = (x: string) => ({ todos: [{ id: x, content: 'sec', status: 'completed' }] });
      assertError(await s.req('POST', '/v1/todos', { body: body(id) }), 401, 'unauthorized');
      assertError(await sync(body(id), (await s.user('pro')).key), 403, 'forbidden');
      assertError(await sync(body(unknown)), 404, 'not_found');
      assertError(await s.req('GET', '/v1/todos'), 401, 'unauthorized');
      assert.deepEqual(
        (await list('?project=sec')).map((t) => t.status),
        ['pending'],
        'the other account changed nothing',
      );
    });
  });
}
