import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, startServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';
import { openStream } from '../sse-helpers.js';

async function eventually(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), what);
}

for (const dialect of dialects()) {
  describe(`event stream [${dialect}]`, () => {
    const stream = (key: string, query = '', headers: Record<string, string> = {}) => openStream(`${s.url}/v1/events/stream${query}`, { authorization: `Bearer ${key}`, ...headers });
    const sheet = async (title: string, key = alice.key) => (await s.req('POST', '/v1/sheets', { key, body: { title, content: { col1: '<p>x</p>' } } })).body.id as string;

    const {
      s,
      users: { alice, bob },
    } = useServer(dialect, { env: { EVENT_STREAM_HEARTBEAT_MS: '200' }, users: { alice: 'pro', bob: 'free' } });

    it('sends a REST write as an SSE event with an evt_ id, only to its owner, with no secrets', async () => {
      const a = await stream(alice.key);
      const b = await stream(bob.key);
      assert.equal(a.res.status, 200);
      assert.match(a.res.headers.get('content-type')!, /^text\/event-stream/);
      const id = await sheet('Live one');
      const [ev] = await a.waitFor(1);
      assert.equal(ev.event, 'sheet.created');
      assert.match(ev.id, /^evt_[0-9a-z]{26}$/);
      assert.equal(ev.data.id, ev.id);
      assert.equal(ev.data.event, 'sheet.created');
      assert.equal(ev.data.data.sheet_id, id);
      assert.equal(ev.data.data.name, 'Live one');
      assert.equal(JSON.stringify(ev).includes(alice.key), false);
      await sheet('Bob writes', bob.key);
      await b.waitFor(1);
      assert.equal(b.received[0].data.data.name, 'Bob writes');
      assert.equal(a.received.length, 1, "another account's event never reaches alice");
      await a.close();
      await b.close();
    });

    it('ends the stream once its API key is disabled, and delivers nothing written after', { timeout: 15_000 }, async () => {
      const made = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'streamer' } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const a = await stream(made.body.api_key as string, '?events=sheet.created');
      assert.equal(a.res.status, 200);
      await sheet('Before disable');
      await a.waitFor(1);
      assert.equal((await s.req('DELETE', `/v1/api-keys/${made.body.id}`, { key: alice.key })).status, 200);
      await sheet('After disable');
      await a.ended;
      assert.deepEqual(
        a.received.map((e) => e.data.data.name),
        ['Before disable'],
      );
    });

    it('filters by events= and refuses unknown names', async () => {
      const a = await stream(alice.key, '?events=sheet.updated,sheet.deleted');
      const id = await sheet('Filtered');
      assert.equal((await s.req('PUT', `/v1/sheets/${id}`, { key: alice.key, body: { title: 'Filtered 2' } })).status, 200);
      assert.equal((await s.req('DELETE', `/v1/sheets/${id}`, { key: alice.key })).status, 200);
      const got = await a.waitFor(2);
      assert.deepEqual(
        got.map((e) => e.event),
        ['sheet.updated', 'sheet.deleted'],
      );
      await a.close();
      assertError(await s.req('GET', '/v1/events/stream?events=sheet.created,nope', { key: alice.key }), 400, 'invalid_request', /nope/);
    });

    it("sends a restore from the trash as sheet.updated with changes ['restored'], to the stream and the webhook outbox", { timeout: 10_000 }, async () => {
      const id = await sheet('Comes back');
      const a = await stream(alice.key, '?events=sheet.updated,sheet.deleted');
      assert.equal((await s.req('DELETE', `/v1/sheets/${id}`, { key: alice.key })).status, 200);
      const restored = await s.req('POST', `/v1/sheets/${id}/restore`, { key: alice.key });
      assert.equal(restored.status, 200);
      const got = await a.waitFor(2);
      assert.deepEqual(
        got.map((e) => e.event),
        ['sheet.deleted', 'sheet.updated'],
      );
      assert.deepEqual(got[1].data.data, {
        sheet_id: id,
        changes: ['restored'],
        columns: [],
        version: restored.body.sheet.version,
        updated_at: restored.body.sheet.updatedAt,
        workspace_id: `wsp_${alice.userId.slice(4)}`,
        actor_id: alice.userId,
      });
      assert.equal((await s.req('POST', `/v1/sheets/${id}/restore`, { key: alice.key })).status, 200, 'restoring an active sheet');
      const outbox = (await s.events('sheet.updated')).filter((e) => e.data.sheet_id === id);
      assert.deepEqual(
        outbox.map((e) => [e.workspace_id, e.data.changes, e.data.version]),
        [[alice.personalWorkspace, ['restored'], 3]],
        'one event, none for the no-op restore',
      );
      await a.close();
    });

    it('resumes strictly after Last-Event-ID, and refuses a malformed one', async () => {
      const a = await stream(alice.key, '?events=sheet.created');
      for (const t of ['R1', 'R2', 'R3']) await sheet(t);
      const first = await a.waitFor(3);
      await a.close();
      assert.deepEqual(
        first.map((e) => e.data.data.name),
        ['R1', 'R2', 'R3'],
      );
      assert.ok(first[0].id < first[1].id && first[1].id < first[2].id, 'ids sort in time order');

      const resumed = await stream(alice.key, '?events=sheet.created', { 'last-event-id': first[0].id });
      const again = await resumed.waitFor(2);
      assert.deepEqual(
        again.map((e) => e.id),
        [first[1].id, first[2].id],
      );
      await sheet('R4');
      assert.equal((await resumed.waitFor(3))[2].data.data.name, 'R4');
      await resumed.close();

      const fromLast = await stream(alice.key, '?events=sheet.created', { 'last-event-id': first[2].id });
      await sheet('R5');
      const [next] = await fromLast.waitFor(1);
      assert.equal(next.data.data.name, 'R4', 'R4 came after R3');
      assert.equal((await fromLast.waitFor(2))[1].data.data.name, 'R5');
      await fromLast.close();

      assertError(await s.req('GET', '/v1/events/stream', { key: alice.key, headers: { 'last-event-id': '../x' } }), 400, 'invalid_request', /Last-Event-ID/);
      assertError(await s.req('GET', '/v1/events/stream'), 401, 'unauthorized');
    });

    it("sees another process's writes on the same database", async () => {
      const other = await startServer(dialect, dialect === 'postgres' ? { databaseUrl: s.c.config.databaseUrl } : { dataDir: s.dataDir });
      try {
        const a = await stream(alice.key, '?events=sheet.created');
        const r = await other.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'From elsewhere', content: {} } });
        assert.equal(r.status, 200);
        const [ev] = await a.waitFor(1);
        assert.equal(ev.data.data.sheet_id, r.body.id);
        await a.close();
      } finally {
        await other.close();
      }
    });

    it('sends heartbeat comments while nothing happens', async () => {
      const a = await stream(bob.key, '?events=export.completed');
      await eventually(() => a.comments.filter((c) => c === 'heartbeat').length >= 2, 'two heartbeats');
      assert.equal(a.received.length, 0);
      await a.close();
    });

    it("carries only the events a scoped key's scopes read; a filter outside them or no read scope: 403", async () => {
      const issue = async (scopes: string[]) => {
        const r = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'stream', scopes } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return r.body.api_key as string;
      };
      const scopeError = (r: { status: number; body: any }, required: string, mentions: RegExp) => {
        assert.equal(r.status, 403, JSON.stringify(r.body));
        assert.deepEqual(r.body, { success: false, error: r.body.error, code: 'insufficient_scope', required_scope: required });
        assert.match(r.body.error, mentions);
      };
      const sheetsOnly = await issue(['sheets:read']);
      const scoped = await stream(sheetsOnly);
      const full = await stream(alice.key, '?events=sheet.created,session.saved');
      assert.equal(scoped.res.status, 200);
      assert.equal((await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: 'Not for sheets:read', summary: 's' } })).status, 200);
      await sheet('For sheets:read');
      assert.deepEqual(
        (await full.waitFor(2)).map((e) => e.event),
        ['session.saved', 'sheet.created'],
      );
      // session.saved was written first, so it would have arrived before sheet.created.
      const [first] = await scoped.waitFor(1);
      assert.equal(first.event, 'sheet.created');
      assert.equal(first.data.data.name, 'For sheets:read');
      await scoped.close();
      await full.close();

      const sessionsOnly = await issue(['sessions:read']);
      const sessions = await stream(sessionsOnly, '?events=session.saved');
      assert.equal(sessions.res.status, 200);
      assert.equal((await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: 'For sessions:read', summary: 's' } })).status, 200);
      assert.equal((await sessions.waitFor(1))[0].data.data.title, 'For sessions:read');
      await sessions.close();
      const stats = await stream(await issue(['stats:read']), '?events=spark.executed');
      assert.equal(stats.res.status, 200, 'spark.executed is readable with stats:read');
      await stats.close();

      scopeError(await s.req('GET', '/v1/events/stream?events=session.saved', { key: sheetsOnly }), 'sessions:read', /session\.saved/);
      scopeError(await s.req('GET', '/v1/events/stream?events=sheet.created,knowledge.saved', { key: sheetsOnly }), 'knowledge:read', /knowledge\.saved/);
      scopeError(await s.req('GET', '/v1/events/stream?events=sheet.created', { key: sessionsOnly }), 'sheets:read', /sheet\.created/);
      const writeOnly = await issue(['sheets:write', 'todos:write']);
      scopeError(await s.req('GET', '/v1/events/stream', { key: writeOnly }), 'sheets:read', /sessions:read/);
    });

    it('sends todos.synced when a sync changes tasks, nothing for a sync that changes nothing, and todo.deleted', async () => {
      const a = await stream(alice.key, '?events=todos.synced,todo.deleted');
      const mine = { workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId };
      const body = {
        project: 'live',
        todos: [
          { content: 'Write docs', status: 'pending' },
          { content: 'Ship', status: 'pending' },
        ],
      };
      const first = await s.req('POST', '/v1/todos', { key: alice.key, body });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const ids = (first.body.todos as { id: string }[]).map((t) => t.id).sort();
      const [synced] = await a.waitFor(1);
      assert.equal(synced.event, 'todos.synced');
      assert.deepEqual({ ...synced.data.data, todo_ids: [...synced.data.data.todo_ids].sort() }, { project: 'live', created: 2, updated: 0, todo_ids: ids, ...mine });

      assert.equal((await s.req('POST', '/v1/todos', { key: alice.key, body })).status, 200, 'the same board again changes nothing');
      const moved = await s.req('POST', '/v1/todos', { key: alice.key, body: { project: 'live', todos: [{ content: 'Ship', status: 'in_progress' }] } });
      const shipId = (moved.body.todos as { id: string; content: string }[]).find((t) => t.content === 'Ship')!.id;
      assert.equal((await s.req('DELETE', `/v1/todos/${shipId}`, { key: alice.key })).status, 200);
      const got = await a.waitFor(3);
      assert.deepEqual(
        got.map((e) => e.event),
        ['todos.synced', 'todos.synced', 'todo.deleted'],
        'the unchanged sync emitted nothing',
      );
      assert.deepEqual(got[1].data.data, { project: 'live', created: 0, updated: 1, todo_ids: [shipId], ...mine });
      assert.equal(got[2].data.data.todo_id, shipId);
      assert.equal(got[2].data.data.project, 'live');
      assert.ok(!Number.isNaN(Date.parse(got[2].data.data.deleted_at)));
      await a.close();

      const todosRead = await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'todos', scopes: ['todos:read'] } });
      const scoped = await stream(todosRead.body.api_key, '?events=todos.synced,todo.deleted');
      assert.equal(scoped.res.status, 200, 'todos:read reads the todo events');
      await scoped.close();
    });

    it('leaves nothing running after clients disconnect', async () => {
      const streams = await Promise.all([1, 2, 3, 4, 5].map(() => stream(alice.key)));
      await eventually(() => s.c.events.openStreams() >= 5, 'five streams open');
      await Promise.all(streams.map((x) => x.close()));
      await eventually(() => s.c.events.openStreams() === 0, 'every stream closed on the server');
      assert.equal(s.c.events.pendingWaits(), 0, 'no wake-up or timer left behind');
    });
  });
}

// Event ids are monotonic per process, so a manual clock must run ahead of every id made so far; and
// once it has, later ids in this process are ahead of real time. Hence this runs last, each dialect
// further ahead than the one before.
describe('event stream: Last-Event-ID reaches back 24 hours at most', () => {
  dialects().forEach((dialect, i) => {
    it(`[${dialect}] an older id resumes from 24 hours ago`, async () => {
      const clock = manualClock(new Date(Date.now() + (i + 1) * 365 * 86_400_000));
      const old = await startServer(dialect, { clock });
      try {
        const u = await old.user('free');
        const make = async (title: string) => (await old.req('POST', '/v1/sheets', { key: u.key, body: { title } })).status;
        assert.equal(await make('A'), 200);
        const [a] = await old.c.db.selectFrom('outbox').select('id').where('workspace_id', '=', u.personalWorkspace).execute();
        clock.advance(30 * 60_000);
        assert.equal(await make('too old'), 200);
        clock.advance(22.5 * 3600_000);
        assert.equal(await make('B'), 200);
        clock.advance(2 * 3600_000); // now A + 25 h: the window starts at A + 1 h
        const r = await openStream(`${old.url}/v1/events/stream?events=sheet.created`, { authorization: `Bearer ${u.key}`, 'last-event-id': a.id });
        const [first] = await r.waitFor(1);
        assert.equal(first.data.data.name, 'B');
        await r.close();
      } finally {
        await old.close();
      }
    });
  });
});
