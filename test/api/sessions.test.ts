import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

for (const dialect of dialects()) {
  describe(`sessions [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-20T09:30:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const create = (body: unknown, key = alice.key) => s.req('POST', '/v1/sessions', { key, body });
    const handover = (body: unknown, key = alice.key) => s.req('POST', '/v1/sessions/handover', { key, body });

    it('saves a session, returns every field and fires session.saved', async () => {
      const r = await create({ title: 'Auth refactor', summary: 'Moved auth to hooks', project: 'api', tags: ['auth'], files_changed: ['src/a.ts', 'src/b.ts'] });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['id', 'session', 'success']);
      assert.equal(r.body.success, true);
      assert.match(r.body.id, /^ses_[0-9a-z]{26}$/);
      assert.deepEqual(r.body.session, {
        id: r.body.id,
        title: 'Auth refactor',
        summary: 'Moved auth to hooks',
        project: 'api',
        tags: ['auth'],
        files_changed: ['src/a.ts', 'src/b.ts'],
        external_id: null,
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
        createdAt: '2026-05-20T09:30:00.000Z',
        updatedAt: null,
      });
      const evs = (await s.events('session.saved')).filter((e) => e.data.session_id === r.body.id);
      assert.deepEqual(
        evs.map((e) => [e.workspace_id, e.data]),
        [[alice.personalWorkspace, { session_id: r.body.id, title: 'Auth refactor', workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId }]],
      );

      const got = await s.req('GET', `/v1/sessions/${r.body.id}`, { key: alice.key });
      assert.deepEqual(got.body, { success: true, session: r.body.session });

      const bare = await create({ title: 't', summary: 's' });
      assert.deepEqual(
        { ...bare.body.session, id: 0, createdAt: 0 },
        {
          id: 0,
          title: 't',
          summary: 's',
          project: null,
          tags: [],
          files_changed: [],
          external_id: null,
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
          createdAt: 0,
          updatedAt: null,
        },
      );
    });

    it('rejects bad input with 400 naming the field', async () => {
      assertError(await create({ summary: 's' }), 400, 'invalid_request', /title/);
      assertError(await create({ title: 't' }), 400, 'invalid_request', /summary/);
      assertError(await create({ title: ' ', summary: 's' }), 400, 'invalid_request', /title must not be empty/);
      assertError(await create({ title: 't', summary: 's', tags: 'x' }), 400, 'invalid_request', /tags/);
      assertError(await create({ title: 't', summary: 's', files_changed: [1] }), 400, 'invalid_request', /files_changed\.0/);
      assertError(await create({ title: 't', summary: 's', project: 3 }), 400, 'invalid_request', /project/);
      assertError(await s.req('GET', '/v1/sessions?limit=-1', { key: alice.key }), 400, 'invalid_request', /limit/);
      assertError(await s.req('GET', '/v1/sessions?offset=x', { key: alice.key }), 400, 'invalid_request', /offset/);
      assertError(await handover({}), 400, 'invalid_request', /session_id/);
      assertError(await handover({ session_id: 'ses_x', next_steps: 'do it' }), 400, 'invalid_request', /next_steps/);
      assertError(await handover({ session_id: 'ses_x', notes: 5 }), 400, 'invalid_request', /notes/);
    });

    it('lists newest first with project filter, limit (default 20, clamped to 100), offset and total', async () => {
      const bob = await s.user('free');
      for (let i = 0; i < 23; i++) {
        clock.advance(1000);
        await create({ title: `s${i}`, summary: 'x', project: i % 2 ? 'odd' : 'even' }, bob.key);
      }
      const def = await s.req('GET', '/v1/sessions', { key: bob.key });
      assert.equal(def.status, 200);
      assert.deepEqual(Object.keys(def.body).sort(), ['sessions', 'success', 'total']);
      assert.equal(def.body.total, 23);
      assert.equal(def.body.sessions.length, 20);
      assert.equal(def.body.sessions[0].title, 's22');
      assert.deepEqual(Object.keys(def.body.sessions[0]).sort(), [
        'agent',
        'createdAt',
        'distill_note',
        'distilled',
        'errors',
        'external_id',
        'files_changed',
        'handover_id',
        'id',
        'outcome',
        'project',
        'prompts',
        'source',
        'summary',
        'tags',
        'tasks_done',
        'tasks_open',
        'title',
        'updatedAt',
        'workspace_id',
      ]);
      assert.equal((await s.req('GET', '/v1/sessions?limit=500', { key: bob.key })).body.sessions.length, 23, 'limit is clamped, not rejected');
      const odd = await s.req('GET', '/v1/sessions?project=odd&limit=3&offset=1', { key: bob.key });
      assert.equal(odd.body.total, 11);
      assert.deepEqual(
        odd.body.sessions.map((x: any) => x.title),
        ['s19', 's17', 's15'],
      );
      assert.equal((await s.req('GET', '/v1/sessions?project=od', { key: bob.key })).body.total, 0, 'project is an exact match');
      await create({ title: 'loose', summary: 'x', project: '' }, bob.key);
      const loose = await s.req('GET', '/v1/sessions?project=', { key: bob.key });
      assert.deepEqual(
        loose.body.sessions.map((x: any) => [x.title, x.project]),
        [['loose', null]],
        'empty project selects sessions without one',
      );
      assert.equal(
        (await s.req('GET', '/v1/sessions', { key: alice.key })).body.sessions.some((x: any) => x.title === 's0'),
        false,
      );
    });

    it('searches title, summary, project and tags in English and CJK', async () => {
      const carol = await s.user('pro');
      const mk = async (b: object) => (await create({ title: 't', summary: 's', ...b }, carol.key)).body.id;
      const en = await mk({ title: 'Fix LOGIN bug', summary: 'Session cookie expired too early' });
      const proj = await mk({ project: 'Billing-Service' });
      const tag = await mk({ tags: ['postgres'] });
      const ja = await mk({ title: '認証の修正', summary: 'ログイン画面で猫が出る' });
      const zh = await mk({ summary: '修复数据库连接' });
      const ko = await mk({ summary: '서울 서버 배포' });
      const search = async (q: string) => (await s.req('GET', `/v1/sessions?q=${encodeURIComponent(q)}`, { key: carol.key })).body.sessions.map((x: any) => x.id).sort();
      assert.deepEqual(await search('login'), [en]);
      assert.deepEqual(await search('cookie fix'), [en]);
      assert.deepEqual(await search('cookie nothing'), []);
      assert.deepEqual(await search('billing-service'), [proj]);
      assert.deepEqual(await search('POSTGRES'), [tag]);
      assert.deepEqual(await search('猫'), [ja], 'one-character word');
      assert.deepEqual(await search('認証'), [ja], 'two-character word');
      assert.deepEqual(await search('数据库'), [zh]);
      assert.deepEqual(await search('서울'), [ko]);
      assert.deepEqual(await search('ＬＯＧＩＮ'), [en], 'full-width letters match');
      assert.deepEqual(await search('%'), []);
      const withTotal = await s.req('GET', `/v1/sessions?q=${encodeURIComponent('猫')}`, { key: carol.key });
      assert.equal(withTotal.body.total, 1);
      assert.equal((await s.req('GET', `/v1/sessions?q=${encodeURIComponent('猫')}`, { key: alice.key })).body.total, 0);
    });

    it('creates a handover sheet with escaped columns, open todos, and both events in one go', async () => {
      const dave = await s.user('pro');
      const ses = (await create({ title: 'Cache <layer>', summary: 'Added <script>alert(1)</script> & "LRU"\nsecond line', project: 'web', tags: ['perf', 'handover'], files_changed: ['src/<x>.ts'] }, dave.key))
        .body.session;
      await s.req('POST', '/v1/todos', {
        key: dave.key,
        body: {
          project: 'web',
          todos: [
            { content: 'Write <docs>', status: 'pending' },
            { content: 'Bench', status: 'in_progress', priority: 'high' },
            { content: 'Done thing', status: 'completed' },
          ],
        },
      });
      await s.req('POST', '/v1/todos', { key: dave.key, body: { project: 'other', todos: [{ content: 'Elsewhere', status: 'pending' }] } });
      const r = await handover({ session_id: ses.id, next_steps: ['Measure <p99>', 'Tune TTL'], notes: 'Ask Bob & Eve' }, dave.key);
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['handover_id', 'session_id', 'sheet', 'success', 'workspace_id']);
      assert.equal(r.body.session_id, ses.id);
      assert.equal(r.body.workspace_id, `wsp_${dave.userId.slice(4)}`);
      assert.match(r.body.handover_id, /^sht_/);
      const sheet = r.body.sheet;
      assert.equal(sheet.id, r.body.handover_id);
      assert.equal(sheet.title, 'Handover: Cache <layer>');
      assert.equal(sheet.folder, 'Handover');
      assert.deepEqual(sheet.tags, ['handover', 'perf'], 'handover first, no duplicate');
      assert.equal(sheet.trashedAt, null);
      assert.deepEqual(Object.keys(sheet.content), ['col1', 'col2', 'col3']);
      const { col1, col2, col3 } = sheet.content;
      assert.equal(col1, '<h2>Summary</h2><p>Added &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;LRU&quot;<br>second line</p><h3>Files changed</h3><ul><li><code>src/&lt;x&gt;.ts</code></li></ul>');
      assert.equal(
        col2,
        '<h2>Next steps</h2><ol><li>Measure &lt;p99&gt;</li><li>Tune TTL</li></ol>' +
          '<h3>Open todos</h3><ul><li>Write &lt;docs&gt; <em>(pending, medium)</em></li><li>Bench <em>(in progress, high)</em></li></ul>',
      );
      assert.equal(col3, '<h2>Notes</h2><p>Ask Bob &amp; Eve</p>');

      const stored = await s.req('GET', `/v1/sheets/${sheet.id}`, { key: dave.key });
      assert.deepEqual(stored.body.sheet, sheet);
      const found = await s.req('GET', `/v1/sheets?q=${encodeURIComponent('p99')}`, { key: dave.key });
      assert.deepEqual(
        found.body.sheets.map((x: any) => x.id),
        [sheet.id],
        'the handover is searchable like any sheet',
      );

      // The set-up's session saves and todo syncs write their own events; the handover writes exactly these two.
      const setUp = new Set(['session.saved', 'todos.synced']);
      const mine = (await s.events()).filter((e) => e.workspace_id === dave.personalWorkspace && !setUp.has(e.event));
      const inDave = { workspace_id: `wsp_${dave.userId.slice(4)}`, actor_id: dave.userId };
      assert.deepEqual(
        mine.map((e) => [e.event, e.data]),
        [
          ['sheet.created', { sheet_id: sheet.id, name: 'Handover: Cache <layer>', created_at: clock.now().toISOString(), ...inDave }],
          ['session.handover', { session_id: ses.id, handover_id: sheet.id, ...inDave }],
        ],
      );
    });

    it('handover without next steps, notes or todos still has three columns', async () => {
      const ses = (await create({ title: 'Bare', summary: 'Nothing else' })).body.session;
      const r = await handover({ session_id: ses.id });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.sheet.content, {
        col1: '<h2>Summary</h2><p>Nothing else</p><h3>Files changed</h3><p>None recorded.</p>',
        col2: '<h2>Next steps</h2><p>None given.</p><h3>Open todos</h3><p>No open todos.</p>',
        col3: '<h2>Notes</h2><p>No notes.</p>',
      });
      assert.deepEqual(r.body.sheet.tags, ['handover']);
    });

    it('a failed handover writes nothing', async () => {
      const other = await s.user('pro');
      const theirs = (await create({ title: 'theirs', summary: 's' }, other.key)).body.id;
      const before = (await s.events()).length;
      const sheetsBefore = (await s.req('GET', '/v1/sheets', { key: alice.key })).body.total;
      assertError(await handover({ session_id: theirs }), 403, 'forbidden', theirs);
      assertError(await handover({ session_id: 'ses_00000000000000000000000000' }), 404, 'not_found', /session/);
      assert.equal((await s.events()).length, before);
      assert.equal((await s.req('GET', '/v1/sheets', { key: alice.key })).body.total, sheetsBefore);
      assertError(await s.req('POST', '/v1/sessions/handover', { body: { session_id: theirs } }), 401, 'unauthorized');
    });

    it('401/403/404 on every route that takes an id', async () => {
      const id = (await create({ title: 'sec', summary: 's' })).body.id;
      const unknown = 'ses_00000000000000000000000000';
      await assertIdRouteSecurity(s, { method: 'GET', path: (x) => `/v1/sessions/${x}` }, alice, id, unknown);
    });
  });
}
