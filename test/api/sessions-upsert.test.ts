import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';
import { httpClient, ok, sameErrorAsRest, toolError } from '../mcp-helpers.js';

for (const dialect of dialects()) {
  describe(`session upsert by external_id and PATCH [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const put = (ext: string, body: unknown, key = alice.key) => s.req('PUT', `/v1/sessions/external/${ext}`, { key, body });
    const patch = (id: string, body: unknown, key = alice.key) => s.req('PATCH', `/v1/sessions/${id}`, { key, body });
    const rowsOf = async (ext: string) => s.c.db.selectFrom('sessions').selectAll().where('external_id', '=', ext).execute();

    it('PUT creates (201, session.saved), then replaces the fields of the same session (200, session.updated)', async () => {
      const first = await put('cc:abc-1', { title: 'First', summary: 'Did a', project: 'rocket', tags: ['claude-code'], files_changed: ['a.ts'] });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.deepEqual(Object.keys(first.body).sort(), ['created', 'id', 'session', 'success']);
      assert.equal(first.body.created, true);
      assert.deepEqual(first.body.session, {
        id: first.body.id,
        title: 'First',
        summary: 'Did a',
        project: 'rocket',
        tags: ['claude-code'],
        files_changed: ['a.ts'],
        external_id: 'cc:abc-1',
        outcome: null,
        tasks_done: [],
        tasks_open: [],
        errors: [],
        prompts: [],
        agent: null,
        source: 'curated',
        handover_id: null,
        distilled: null,
        distill_note: null,
        workspace_id: `wsp_${alice.userId.slice(4)}`,
        createdAt: '2026-06-01T08:00:00.000Z',
        updatedAt: null,
      });
      clock.advance(60_000);
      const second = await put('cc:abc-1', { title: 'First', summary: 'Did a and b', project: 'rocket', files_changed: ['a.ts', 'b.ts'] });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.body.created, false);
      assert.equal(second.body.id, first.body.id);
      // Omitted optional fields are replaced by empty ones: PUT states the whole session.
      assert.deepEqual(second.body.session.tags, []);
      assert.deepEqual(second.body.session.files_changed, ['a.ts', 'b.ts']);
      assert.equal(second.body.session.createdAt, '2026-06-01T08:00:00.000Z');
      assert.equal(second.body.session.updatedAt, '2026-06-01T08:01:00.000Z');
      assert.equal((await rowsOf('cc:abc-1')).length, 1);

      const got = await s.req('GET', `/v1/sessions/${first.body.id}`, { key: alice.key });
      assert.deepEqual(got.body.session, second.body.session);
      const saved = (await s.events('session.saved')).filter((e) => e.data.session_id === first.body.id);
      assert.equal(saved.length, 1);
      const updated = (await s.events('session.updated')).filter((e) => e.data.session_id === first.body.id);
      assert.deepEqual(
        updated.map((e) => [e.workspace_id, e.data]),
        [
          [
            alice.personalWorkspace,
            {
              session_id: first.body.id,
              title: 'First',
              changes: ['summary', 'tags', 'files_changed'],
              updated_at: '2026-06-01T08:01:00.000Z',
              workspace_id: `wsp_${alice.userId.slice(4)}`,
              actor_id: alice.userId,
            },
          ],
        ],
      );

      // The same body again changes nothing: 200, no event, updatedAt kept.
      clock.advance(60_000);
      const again = await put('cc:abc-1', { title: 'First', summary: 'Did a and b', project: 'rocket', files_changed: ['a.ts', 'b.ts'] });
      assert.equal(again.status, 200);
      assert.equal(again.body.session.updatedAt, '2026-06-01T08:01:00.000Z');
      assert.equal((await s.events('session.updated')).filter((e) => e.data.session_id === first.body.id).length, 1);

      // Search follows the new fields.
      const found = await s.req('GET', '/v1/sessions?q=and%20b&project=rocket', { key: alice.key });
      assert.deepEqual(
        found.body.sessions.map((x: any) => x.id),
        [first.body.id],
      );
    });

    it('one external_id per account: another account gets its own session under the same reference', async () => {
      const bob = await s.user('pro');
      const a = await put('cc:shared', { title: 'A', summary: 'alice' });
      const b = await put('cc:shared', { title: 'B', summary: 'bob' }, bob.key);
      assert.equal(a.status, 201);
      assert.equal(b.status, 201);
      assert.notEqual(a.body.id, b.body.id);
      const again = await put('cc:shared', { title: 'A2', summary: 'alice' });
      assert.equal(again.body.id, a.body.id);
      assert.equal((await s.req('GET', `/v1/sessions/${b.body.id}`, { key: bob.key })).body.session.title, 'B');
    });

    it('~30 concurrent PUTs of one external_id make exactly one session; different ones in parallel each make one', async () => {
      const n = 30;
      const answers = await Promise.all(Array.from({ length: n }, (_, i) => put('cc:race-1', { title: `T${i}`, summary: `S${i}`, project: 'race', files_changed: [`f${i}.ts`] })));
      for (const a of answers) assert.ok(a.status === 200 || a.status === 201, `${a.status} ${JSON.stringify(a.body)}`);
      assert.equal(answers.filter((a) => a.body.created === true).length, 1);
      assert.equal(answers.filter((a) => a.status === 201).length, 1);
      assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
      const rows = await rowsOf('cc:race-1');
      assert.equal(rows.length, 1);
      assert.equal(rows[0].id, answers[0].body.id);
      assert.equal((await s.events('session.saved')).filter((e) => e.data.session_id === rows[0].id).length, 1);

      const refs = Array.from({ length: 8 }, (_, i) => `cc:par-${i}`);
      const mixed = await Promise.all(refs.flatMap((ref) => [1, 2, 3].map((k) => put(ref, { title: `${ref} ${k}`, summary: 'x' }))));
      for (const a of mixed) assert.ok(a.status === 200 || a.status === 201, `${a.status} ${JSON.stringify(a.body)}`);
      for (const ref of refs) {
        const mine = mixed.filter((a) => a.body.session.external_id === ref);
        assert.equal(mine.length, 3);
        assert.equal(new Set(mine.map((a) => a.body.id)).size, 1, ref);
        assert.equal(mine.filter((a) => a.body.created).length, 1, ref);
        assert.equal((await rowsOf(ref)).length, 1, ref);
      }
    });

    it('400 for a bad external_id (characters, length) or body; 401 without a key', async () => {
      assertError(await put('cc%20space', { title: 't', summary: 's' }), 400, 'invalid_request', /external_id may contain only/);
      assertError(await put('cc%2Fslash', { title: 't', summary: 's' }), 400, 'invalid_request', /external_id/);
      assertError(await put('%C3%A9t%C3%A9', { title: 't', summary: 's' }), 400, 'invalid_request', /external_id/);
      assertError(await put('a'.repeat(201), { title: 't', summary: 's' }), 400, 'invalid_request', /at most 200/);
      assert.equal((await put('a'.repeat(200), { title: 't', summary: 's' })).status, 201);
      assertError(await put('%E0%A4%A', { title: 't', summary: 's' }), 400, 'invalid_request', /URL is malformed/);
      assertError(await put('cc:ok', { title: '', summary: 's' }), 400, 'invalid_request', /title/);
      assertError(await put('cc:ok', { summary: 's' }), 400, 'invalid_request', /title/);
      assertError(await put('cc:ok', { title: 't', summary: 's', files_changed: 'a.ts' }), 400, 'invalid_request', /files_changed/);
      assertError(await s.req('PUT', '/v1/sessions/external/cc:ok', { body: { title: 't', summary: 's' } }), 401, 'unauthorized');
      assert.equal((await rowsOf('cc:ok')).length, 0);
    });

    it('PATCH changes only the given fields and fires session.updated; 400 for an empty or bad body', async () => {
      const created = await s.req('POST', '/v1/sessions', { key: alice.key, body: { title: 'P', summary: 'plain', project: 'p1', tags: ['x'], files_changed: ['x.ts'] } });
      const id = created.body.id;
      clock.advance(1000);
      const r = await patch(id, { summary: 'changed', files_changed: ['x.ts', 'y.ts'] });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.session, { ...created.body.session, summary: 'changed', files_changed: ['x.ts', 'y.ts'], updatedAt: clock.now().toISOString() });
      const ev = (await s.events('session.updated')).filter((e) => e.data.session_id === id);
      assert.deepEqual(
        ev.map((e) => e.data.changes),
        [['summary', 'files_changed']],
      );

      const cleared = await patch(id, { project: null });
      assert.equal(cleared.body.session.project, null);
      assert.equal((await patch(id, { project: 'p2' })).body.session.project, 'p2');
      assert.equal((await patch(id, { project: '' })).body.session.project, null);
      assert.equal(
        (await s.req('GET', '/v1/sessions?project=', { key: alice.key })).body.sessions.some((x: any) => x.id === id),
        true,
      );

      assertError(await patch(id, {}), 400, 'invalid_request', /at least one of title, summary/);
      assertError(await patch(id, { title: '   ' }), 400, 'invalid_request', /title/);
      assertError(await patch(id, { tags: 'x' }), 400, 'invalid_request', /tags/);
      await assertIdRouteSecurity(s, { method: 'PATCH', path: (x) => `/v1/sessions/${x}`, body: { title: 'no' } }, alice, id, 'ses_00000000000000000000000000');
      assert.equal((await s.req('GET', `/v1/sessions/${id}`, { key: alice.key })).body.session.title, 'P');
    });

    it('MCP: save_session with external_id upserts like PUT, update_session patches like PATCH', async () => {
      const mcp = await httpClient(s, alice.key);
      const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
      const first = ok(await call('save_session', { external_id: 'cc:mcp-1', title: 'M', summary: 'one', project: 'mcp', files_changed: ['a.ts'] }));
      assert.equal(first.created, true);
      assert.equal(first.session.external_id, 'cc:mcp-1');
      const second = ok(await call('save_session', { external_id: 'cc:mcp-1', title: 'M', summary: 'two', project: 'mcp', files_changed: ['a.ts'] }));
      assert.equal(second.created, false);
      assert.equal(second.id, first.id);
      // REST and MCP share the reference: a PUT finds the session MCP made.
      const viaRest = await put('cc:mcp-1', { title: 'M', summary: 'two', project: 'mcp', files_changed: ['a.ts'] });
      assert.equal(viaRest.status, 200);
      assert.deepEqual(viaRest.body.session, second.session);
      assert.equal((await rowsOf('cc:mcp-1')).length, 1);
      // Without external_id it saves a new session each time, as before (no created field).
      const plain = ok(await call('save_session', { title: 'M', summary: 'two' }));
      assert.equal(plain.created, undefined);
      assert.notEqual(plain.id, first.id);

      const updated = ok(await call('update_session', { id: first.id, title: 'Renamed', tags: ['claude-code'] }));
      assert.deepEqual(updated.session, { ...second.session, title: 'Renamed', tags: ['claude-code'], updatedAt: updated.session.updatedAt });
      assert.deepEqual(
        (await s.events('session.updated')).filter((e) => e.data.session_id === first.id).map((e) => e.data.changes),
        [['summary'], ['title', 'tags']],
      );
      const bad = toolError(await call('save_session', { external_id: 'bad id', title: 't', summary: 's' }), 400, 'invalid_request');
      assert.match(bad.error, /external_id may contain only letters, digits/);
      sameErrorAsRest(await call('update_session', { id: first.id }), await patch(first.id, {}));
      const bob = await s.user('pro');
      const bobMcp = await httpClient(s, bob.key);
      toolError(await bobMcp.callTool({ name: 'update_session', arguments: { id: first.id, title: 'x' } }), 403, 'forbidden');
      await bobMcp.close();

      const reader = (await s.req('POST', '/v1/api-keys', { key: alice.key, body: { name: 'r', scopes: ['sessions:read'] } })).body.api_key;
      const readerMcp = await httpClient(s, reader);
      const names = (await readerMcp.listTools()).tools.map((x) => x.name);
      assert.ok(!names.includes('update_session') && !names.includes('save_session'));
      const refused = (await readerMcp.callTool({ name: 'update_session', arguments: { id: first.id, title: 'x' } })) as { isError?: boolean; content: { text: string }[] };
      assert.equal(refused.isError, true);
      assert.equal(JSON.parse(refused.content[0].text).required_scope, 'sessions:write');
      await readerMcp.close();
      await mcp.close();
    });
  });
}
