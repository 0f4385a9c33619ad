import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, startServer, type TestServer } from '../helpers.js';

/**
 * Issue 54, points 1 and 2: a session record says what was done (outcome, tasks, failed commands,
 * prompts, agent) in fields the API shows; capture merges and never replaces what a person or the model
 * wrote; a handover is linked to its session by id.
 */
for (const dialect of dialects()) {
  describe(`session records [${dialect}]`, () => {
    let s: TestServer;
    let key: string;

    before(async () => {
      s = await startServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
      key = (await s.user('pro')).key;
    });
    after(async () => {
      await s?.close();
    });

    const capture = (ref: string, body: Record<string, unknown>) =>
      s.req('PUT', `/v1/sessions/external/${ref}`, { key, body: { tags: ['claude-code'], agent: 'claude-code', project: 'shop', source: 'capture', ...body } });

    it('stores and shows outcome, tasks, failed commands, prompts and agent', async () => {
      const made = await s.req('POST', '/v1/sessions', {
        key,
        body: {
          title: 'Fix login',
          summary: 'Fixed the login redirect',
          project: 'shop',
          outcome: 'Login works again.',
          tasks_done: ['Fix redirect'],
          tasks_open: ['Add a test'],
          errors: [{ command: 'npm test', error: 'TypeError: x is undefined' }],
          prompts: ['fix login'],
          agent: 'codex',
        },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const got = (await s.req('GET', `/v1/sessions/${made.body.id}`, { key })).body.session;
      assert.equal(got.outcome, 'Login works again.');
      assert.deepEqual(got.tasks_done, ['Fix redirect']);
      assert.deepEqual(got.tasks_open, ['Add a test']);
      assert.deepEqual(got.errors, [{ command: 'npm test', error: 'TypeError: x is undefined' }]);
      assert.deepEqual(got.prompts, ['fix login']);
      assert.equal(got.agent, 'codex');
      assert.equal(got.source, 'curated');
      assert.equal(got.handover_id, null);
      // What capture found is searchable: the failed command's error line.
      const found = await s.req('GET', '/v1/sessions?q=TypeError', { key });
      assert.ok(
        found.body.sessions.some((x: { id: string }) => x.id === made.body.id),
        JSON.stringify(found.body),
      );
    });

    it('capture never replaces a curated title, summary or outcome; it adds files, errors and tasks', async () => {
      const first = await capture('cc:merge-1', {
        title: 'Good morning, pick up',
        summary: 'Prompts: ...',
        outcome: 'first closing message',
        files_changed: ['a.ts'],
        errors: [{ command: 'npm run build', error: 'error TS2345' }],
        tasks_open: ['Write docs'],
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.session.source, 'capture');
      // The handover command: the model saves a curated title and summary under the same reference.
      const curated = await s.req('PUT', '/v1/sessions/external/cc:merge-1', {
        key,
        body: { title: 'Migrated auth to jose', summary: 'Replaced jsonwebtoken with jose.', project: 'shop', tags: ['claude-code', 'handover'], files_changed: ['src/auth.ts'], outcome: 'Auth on jose' },
      });
      assert.equal(curated.status, 200, JSON.stringify(curated.body));
      assert.equal(curated.body.session.source, 'curated');
      assert.deepEqual(curated.body.session.errors, [{ command: 'npm run build', error: 'error TS2345' }], 'a curated save keeps what capture found');
      const handover = await s.req('POST', '/v1/sessions/handover', { key, body: { session_id: first.body.id, next_steps: ['Ship it'] } });
      assert.equal(handover.status, 200, JSON.stringify(handover.body));
      // SessionEnd, 0.6 s later: the raw capture again.
      const end = await capture('cc:merge-1', {
        title: 'Good morning, pick up',
        summary: 'Prompts: ... more',
        outcome: 'closing message',
        files_changed: ['a.ts', 'b.ts'],
        errors: [{ command: 'npm test', error: 'AssertionError' }],
        tasks_done: ['Write docs'],
      });
      assert.equal(end.status, 200, JSON.stringify(end.body));
      const got = end.body.session;
      assert.equal(got.title, 'Migrated auth to jose');
      assert.equal(got.summary, 'Replaced jsonwebtoken with jose.');
      assert.equal(got.outcome, 'Auth on jose');
      assert.deepEqual(got.files_changed, ['src/auth.ts', 'a.ts', 'b.ts']);
      assert.deepEqual(got.errors, [
        { command: 'npm run build', error: 'error TS2345' },
        { command: 'npm test', error: 'AssertionError' },
      ]);
      assert.deepEqual(got.tasks_done, ['Write docs']);
      assert.deepEqual(got.tasks_open, [], 'a task done later leaves the open list');
      assert.deepEqual(got.tags, ['claude-code', 'handover']);
      assert.equal(got.source, 'curated');
      assert.equal(got.handover_id, handover.body.handover_id, 'the handover is linked by id');
      const listed = await s.req('GET', '/v1/sessions?project=shop', { key });
      assert.equal(listed.body.sessions.find((x: { id: string }) => x.id === first.body.id).handover_id, handover.body.handover_id);
    });

    it('a curated save without files keeps the files capture found', async () => {
      await capture('cc:files-1', { title: 'raw', summary: 'x', files_changed: ['src/a.ts'], errors: [{ command: 'make', error: 'boom' }] });
      const curated = await s.req('PUT', '/v1/sessions/external/cc:files-1', { key, body: { title: 'Curated', summary: 'What was done', project: 'shop' } });
      assert.equal(curated.status, 200, JSON.stringify(curated.body));
      assert.deepEqual(curated.body.session.files_changed, ['src/a.ts']);
      assert.deepEqual(curated.body.session.errors, [{ command: 'make', error: 'boom' }]);
      assert.deepEqual(curated.body.session.tags, [], 'tags still follow the curated save');
    });

    it('a later capture of a captured session takes its new title and outcome', async () => {
      await capture('cc:merge-2', { title: 'first prompt', summary: 'x', outcome: 'one' });
      const again = await capture('cc:merge-2', { title: 'Fixed the build', summary: 'y', outcome: 'two' });
      assert.equal(again.body.session.title, 'Fixed the build');
      assert.equal(again.body.session.outcome, 'two');
      assert.equal(again.body.session.source, 'capture');
    });

    it('concurrent captures of one session make one record holding every file and error', async () => {
      const n = 12;
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => capture('cc:parallel', { title: 'parallel', summary: `part ${i}`, files_changed: [`f${i}.ts`], errors: [{ command: `cmd ${i}`, error: 'failed' }] })),
      );
      for (const r of results) assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.body));
      assert.equal(results.filter((r) => r.status === 201).length, 1);
      const ids = new Set(results.map((r) => r.body.id));
      assert.equal(ids.size, 1);
      const got = (await s.req('GET', `/v1/sessions/${[...ids][0]}`, { key })).body.session;
      assert.equal(got.files_changed.length, n);
      assert.equal(got.errors.length, n);
    });

    it('400 naming the field for a bad agent, source or failed command', async () => {
      const bad = async (body: Record<string, unknown>, field: RegExp) => {
        const r = await capture('cc:bad', { title: 't', summary: 's', ...body });
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.match(r.body.error, field);
      };
      await bad({ agent: 'Claude Code!' }, /agent/);
      await bad({ source: 'robot' }, /source/);
      await bad({ errors: [{ error: 'no command' }] }, /command/);
      await bad({ tasks_done: 'one' }, /tasks_done/);
    });

    it('todos remember the session that changed them', async () => {
      const r = await s.req('POST', '/v1/todos', { key, body: { project: 'shop', session_ref: 'cc:merge-1', todos: [{ content: 'Ship it', status: 'in_progress' }] } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const bad = await s.req('POST', '/v1/todos', { key, body: { project: 'shop', session_ref: 'no spaces allowed', todos: [] } });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /session_ref/);
    });
  });
}
