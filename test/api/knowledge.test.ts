import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

const SOLUTION_KEYS = ['content', 'createdAt', 'error', 'id', 'language', 'tags', 'title', 'version', 'workspace_id'];
const SNIPPET_KEYS = ['content', 'createdAt', 'description', 'id', 'language', 'tags', 'title', 'version', 'workspace_id'];

for (const dialect of dialects()) {
  describe(`knowledge [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-06-01T00:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const save = (type: string | undefined, body: unknown, key = alice.key) => s.req('POST', `/v1/knowledge${type === undefined ? '' : `?type=${type}`}`, { key, body });
    const list = (query: string, key = alice.key) => s.req('GET', `/v1/knowledge${query}`, { key });
    const personal = () => `wsp_${alice.userId.slice(4)}`;
    const savedEvents = async (id: string) => (await s.events('knowledge.saved')).filter((e) => e.data.id === id).map((e) => e.data);
    /** What outbox.emit adds to every event: the workspace and the member who acted. */
    const byAlice = () => ({ workspace_id: personal(), actor_id: alice.userId });

    it('saves a solution with every field and fires knowledge.saved', async () => {
      const r = await save('solutions', { title: 'ECONNRESET on deploy', error: 'Error: read ECONNRESET', content: 'Raise keepAlive', language: 'typescript', tags: ['node', 'net'] });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['id', 'solution', 'success', 'type']);
      assert.equal(r.body.type, 'solution');
      assert.match(r.body.id, /^sol_[0-9a-z]{26}$/);
      assert.deepEqual(r.body.solution, {
        id: r.body.id,
        title: 'ECONNRESET on deploy',
        error: 'Error: read ECONNRESET',
        content: 'Raise keepAlive',
        language: 'typescript',
        tags: ['node', 'net'],
        createdAt: '2026-06-01T00:00:00.000Z',
        version: 1,
        workspace_id: personal(),
      });
      assert.deepEqual(await savedEvents(r.body.id), [{ type: 'solution', id: r.body.id, title: 'ECONNRESET on deploy', ...byAlice() }]);
      const bare = await save('solutions', { title: 'b', content: 'c' });
      assert.deepEqual({ ...bare.body.solution, id: 0, createdAt: 0 }, { id: 0, title: 'b', error: null, content: 'c', language: null, tags: [], createdAt: 0, version: 1, workspace_id: personal() });
    });

    it('saves a snippet with every field and fires knowledge.saved', async () => {
      const r = await save('snippets', { title: 'Debounce', content: 'const d = () => {}', language: 'js', description: 'Delays calls', tags: ['util'] });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['id', 'snippet', 'success', 'type']);
      assert.equal(r.body.type, 'snippet');
      assert.match(r.body.id, /^snp_[0-9a-z]{26}$/);
      assert.deepEqual(r.body.snippet, {
        id: r.body.id,
        title: 'Debounce',
        content: 'const d = () => {}',
        language: 'js',
        description: 'Delays calls',
        tags: ['util'],
        createdAt: '2026-06-01T00:00:00.000Z',
        version: 1,
        workspace_id: personal(),
      });
      assert.deepEqual(await savedEvents(r.body.id), [{ type: 'snippet', id: r.body.id, title: 'Debounce', ...byAlice() }]);
      const got = await s.req('GET', `/v1/knowledge/${r.body.id}`, { key: alice.key });
      assert.deepEqual(got.body, { success: true, type: 'snippet', snippet: r.body.snippet });
    });

    it('rejects a missing or invalid type and bad fields with 400', async () => {
      assertError(await save(undefined, { title: 't', content: 'c' }), 400, 'invalid_request', /type.*solutions, snippets/);
      assertError(await save('notes', { title: 't', content: 'c' }), 400, 'invalid_request', /type.*solutions, snippets/);
      assertError(await list('?type=notes'), 400, 'invalid_request', /solutions, snippets/);
      assertError(await save('solutions', { content: 'c' }), 400, 'invalid_request', /title/);
      assertError(await save('solutions', { title: 't' }), 400, 'invalid_request', /content/);
      assertError(await save('snippets', { title: 't', content: '' }), 400, 'invalid_request', /content must not be empty/);
      assertError(await save('solutions', { title: 't', content: 'c', tags: [1] }), 400, 'invalid_request', /tags\.0/);
      assertError(await save('solutions', { title: 't', content: 'c', description: 'd' }), 400, 'invalid_request', /description.*snippets/);
      assertError(await save('snippets', { title: 't', content: 'c', error: 'e' }), 400, 'invalid_request', /error.*solutions/);
      assertError(await list('?limit=1.5'), 400, 'invalid_request', /limit/);
    });

    it('lists one type, or both without type, newest first with limit (default 20, max 100)', async () => {
      const bob = await s.user('free');
      for (let i = 0; i < 22; i++) await save('solutions', { title: `sol${i}`, content: 'c' }, bob.key);
      for (let i = 0; i < 3; i++) await save('snippets', { title: `snp${i}`, content: 'c' }, bob.key);
      const sols = await list('?type=solutions', bob.key);
      assert.deepEqual(Object.keys(sols.body).sort(), ['solutions', 'success', 'total']);
      assert.equal(sols.body.solutions.length, 20);
      assert.equal(sols.body.solutions[0].title, 'sol21');
      assert.deepEqual(Object.keys(sols.body.solutions[0]).sort(), SOLUTION_KEYS);
      const snps = await list('?type=snippets', bob.key);
      assert.deepEqual(Object.keys(snps.body).sort(), ['snippets', 'success', 'total']);
      assert.deepEqual(
        snps.body.snippets.map((x: any) => x.title),
        ['snp2', 'snp1', 'snp0'],
      );
      assert.deepEqual(Object.keys(snps.body.snippets[0]).sort(), SNIPPET_KEYS);
      const both = await list('?limit=2', bob.key);
      assert.deepEqual(Object.keys(both.body).sort(), ['snippets', 'solutions', 'success', 'total']);
      assert.deepEqual(
        both.body.solutions.map((x: any) => x.title),
        ['sol21', 'sol20'],
      );
      assert.deepEqual(
        both.body.snippets.map((x: any) => x.title),
        ['snp2', 'snp1'],
      );
      assert.equal((await list('?type=solutions&limit=1000', bob.key)).body.solutions.length, 22);
      assert.equal(
        (await list('?type=solutions', alice.key)).body.solutions.some((x: any) => x.title === 'sol0'),
        false,
      );
    });

    it('searches title, error, content and description (CJK too) and filters by exact tag', async () => {
      const carol = await s.user('pro');
      const id = async (type: string, body: object) => (await save(type, { title: 't', content: 'c', ...body }, carol.key)).body.id;
      const byErr = await id('solutions', { error: 'TypeError: Cannot read PROPERTIES of undefined', tags: ['JS', 'x"y'] });
      const byContent = await id('solutions', { content: '接続プールを増やす', tags: ['js'] });
      const byDesc = await id('snippets', { description: '한국어 설명', tags: ['js', 'Jsx'] });
      const byTitle = await id('snippets', { title: '数据库 backup' });
      const q = async (query: string) => {
        const b = (await list(query, carol.key)).body;
        return [...(b.solutions ?? []), ...(b.snippets ?? [])].map((x: any) => x.id).sort();
      };
      assert.deepEqual(await q('?q=properties%20undefined'), [byErr]);
      assert.deepEqual(await q(`?q=${encodeURIComponent('プール')}`), [byContent]);
      assert.deepEqual(await q(`?q=${encodeURIComponent('설명')}`), [byDesc]);
      assert.deepEqual(await q(`?q=${encodeURIComponent('数')}`), [byTitle], 'one-character word');
      assert.deepEqual(await q(`?type=snippets&q=${encodeURIComponent('数据库')}`), [byTitle]);
      assert.deepEqual(await q(`?type=solutions&q=${encodeURIComponent('数据库')}`), []);
      assert.deepEqual(await q('?tag=js'), [byContent, byDesc].sort(), 'exact, case-sensitive tag');
      assert.deepEqual(await q('?tag=JS'), [byErr]);
      assert.deepEqual(await q('?tag=j'), [], 'no partial tag match');
      assert.deepEqual(await q(`?tag=${encodeURIComponent('x"y')}`), [byErr]);
      assert.deepEqual(await q(`?tag=${encodeURIComponent('y')}`), [], 'a quote inside a tag does not split it');
      assert.deepEqual(await q('?tag=js&q=%E8%AA%AC'), [], 'q and tag combine');
    });

    it('PUT partially updates either kind and fires knowledge.saved only on change', async () => {
      const sol = (await save('solutions', { title: 'old', error: 'E1', content: 'c', language: 'go', tags: ['a'] })).body.id;
      clock.advance(5000);
      const r = await s.req('PUT', `/v1/knowledge/${sol}`, { key: alice.key, body: { title: 'new', error: null, tags: ['b'] } });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {
        success: true,
        type: 'solution',
        solution: { id: sol, title: 'new', error: null, content: 'c', language: 'go', tags: ['b'], createdAt: '2026-06-01T00:00:00.000Z', version: 2, workspace_id: personal() },
      });
      assert.deepEqual(await savedEvents(sol), [
        { type: 'solution', id: sol, title: 'old', ...byAlice() },
        { type: 'solution', id: sol, title: 'new', ...byAlice() },
      ]);
      const same = await s.req('PUT', `/v1/knowledge/${sol}`, { key: alice.key, body: { title: 'new', language: 'go' } });
      assert.equal(same.status, 200);
      assert.equal((await savedEvents(sol)).length, 2, 'a no-op update fires nothing');
      assert.equal(
        (await list('?q=e1')).body.solutions.some((x: any) => x.id === sol),
        false,
        'search text follows the update',
      );
      assert.equal(
        (await list('?q=new')).body.solutions.some((x: any) => x.id === sol),
        true,
      );

      const snp = (await save('snippets', { title: 's', content: 'x' })).body.id;
      const u = await s.req('PUT', `/v1/knowledge/${snp}`, { key: alice.key, body: { description: 'explained', content: 'y' } });
      assert.deepEqual({ ...u.body.snippet, createdAt: 0 }, { id: snp, title: 's', content: 'y', language: null, description: 'explained', tags: [], createdAt: 0, version: 2, workspace_id: personal() });
      assertError(await s.req('PUT', `/v1/knowledge/${snp}`, { key: alice.key, body: { error: 'e' } }), 400, 'invalid_request', /error.*solutions/);
      assertError(await s.req('PUT', `/v1/knowledge/${snp}`, { key: alice.key, body: { title: '' } }), 400, 'invalid_request', /title/);
      assertError(await s.req('PUT', `/v1/knowledge/${snp}`, { key: alice.key, body: { tags: 'x' } }), 400, 'invalid_request', /tags/);
    });

    it('DELETE removes either kind', async () => {
      const snp = (await save('snippets', { title: 'bye', content: 'x' })).body.id;
      const r = await s.req('DELETE', `/v1/knowledge/${snp}`, { key: alice.key });
      assert.deepEqual(r.body, { success: true, id: snp, type: 'snippet', deleted: true });
      assertError(await s.req('GET', `/v1/knowledge/${snp}`, { key: alice.key }), 404, 'not_found', snp);
    });

    it('401/403/404 on every route that takes an id', async () => {
      const sol = (await save('solutions', { title: 'sec', content: 'c' })).body.id;
      const unknown = 'sol_00000000000000000000000000';
      for (const route of [
        { method: 'GET', path: (x: string) => `/v1/knowledge/${x}` },
        { method: 'PUT', path: (x: string) => `/v1/knowledge/${x}`, body: { title: 'hijack' } },
        { method: 'DELETE', path: (x: string) => `/v1/knowledge/${x}` },
      ]) {
        await assertIdRouteSecurity(s, route, alice, sol, unknown);
      }
      assert.equal((await s.req('GET', `/v1/knowledge/${sol}`, { key: alice.key })).body.solution.title, 'sec', 'the other account changed nothing');
      assertError(await s.req('GET', '/v1/knowledge'), 401, 'unauthorized');
    });
  });
}
