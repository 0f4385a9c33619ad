import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects, type Res } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { makeTeam } from '../teams-helpers.js';

/**
 * Issue 55: GET /v1/search over sheets (handovers included), sessions, solutions, snippets and todos,
 * ranked (words not all required, word forms, identifiers, CJK, recency, prefer_project), within the
 * caller's reach (scopes, roles, restricted keys), and finding what was written a moment before.
 */
for (const dialect of dialects()) {
  describe(`search [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { users: { alice: 'pro', bob: 'pro', carol: 'pro' } });
    const { alice, bob, carol } = users;
    const personal = (u: TestUser) => `wsp_${u.userId.slice(4)}`;
    const search = (key: string, query: string) => s.req('GET', `/v1/search?${query}`, { key });
    const ok = async (key: string, query: string) => {
      const r = await search(key, query);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { success: true; results: { type: string; id: string; title: string; snippet: string; project: string | null; score: number; updatedAt: string; workspace_id: string }[]; total: number };
    };
    const ids = async (key: string, query: string) => (await ok(key, query)).results.map((r) => r.id);
    const post = async (key: string, path: string, body: unknown) => {
      const r = await s.req('POST', path, { key, body });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };
    const q = encodeURIComponent;
    const ids_ = { jose: '', jwt: '', busy: '', sheet: '', snippet: '', todo: '', cjk: '', dbt: '' };

    before(async () => {
      ids_.jose = (
        await post(alice.key, '/v1/sessions', {
          title: 'Migrated auth middleware from jsonwebtoken to jose',
          summary: 'jsonwebtoken does not run on the edge runtime, so src/auth/middleware.ts now calls jwtVerify from jose.',
          project: 'api',
          tags: ['auth'],
          files_changed: ['src/auth/middleware.ts'],
        })
      ).session.id;
      ids_.busy = (
        await post(alice.key, '/v1/knowledge?type=solutions', {
          title: 'Database locked under load',
          error: 'SqliteError: SQLITE_BUSY: database is locked',
          content: 'Set PRAGMA busy_timeout = 5000 on every connection.',
          tags: ['sqlite'],
        })
      ).solution.id;
      ids_.snippet = (
        await post(alice.key, '/v1/knowledge?type=snippets', {
          title: 'Incremental model for fct_orders',
          content: "{{ config(materialized='incremental') }} select * from stg_orders",
          language: 'sql',
          description: 'dbt model',
        })
      ).snippet.id;
      ids_.sheet = (await post(alice.key, '/v1/sheets', { title: 'Deploy checklist', content: { col1: '<p>Run the migrations before switching traffic to the new release.</p>' } })).sheet.id;
      await post(alice.key, '/v1/todos', { project: 'api', todos: [{ content: 'Rotate the signing keys of the staging cluster', status: 'pending' }] });
      ids_.todo = (await s.req('GET', '/v1/todos?project=api', { key: alice.key })).body.todos[0].id;
      // Everyday records: "switch" is a common word in a real memory, not one only the deploy checklist has.
      for (const title of ['Switch the CI cache to S3', 'Switched the office network switch', 'Switching costs of the email vendor']) {
        await post(alice.key, '/v1/sessions', { title, summary: `${title}. Nothing else.` });
      }
      ids_.cjk = (
        await post(alice.key, '/v1/sessions', {
          title: '認証ミドルウェアの移行',
          summary: 'トークンの検証をjoseに切り替えた。鍵の管理は別途。',
          project: 'api',
        })
      ).session.id;
    });

    it('finds a session in other words than its own, right after the write, with every field of a result', async () => {
      const body = await ok(alice.key, `q=${q('why did we switch to jose')}`);
      assert.equal(body.results[0].id, ids_.jose);
      const hit = body.results[0];
      assert.deepEqual(Object.keys(hit).sort(), ['id', 'project', 'score', 'snippet', 'title', 'type', 'updatedAt', 'workspace_id']);
      assert.equal(hit.type, 'session');
      assert.equal(hit.project, 'api');
      assert.equal(hit.workspace_id, personal(alice));
      assert.ok(hit.score > 0);
      assert.match(hit.snippet, /jose/);
      assert.equal((await ids(alice.key, `q=${q('migrating auth')}`))[0], ids_.jose);
      // A record written a moment ago is found by the very next request.
      const fresh = (await post(alice.key, '/v1/sessions', { title: 'Quokka telemetry exporter', summary: 'Wired the quokka exporter.' })).session.id;
      assert.deepEqual(await ids(alice.key, 'q=quokka'), [fresh]);
    });

    it('splits identifiers, matches pasted errors and file paths, and Japanese two-character words', async () => {
      assert.equal((await ids(alice.key, `q=${q('jwtVerify')}`))[0], ids_.jose);
      assert.equal((await ids(alice.key, `q=${q('src/auth/middleware.ts')}`))[0], ids_.jose);
      assert.equal((await ids(alice.key, `q=${q('busy timeout')}`))[0], ids_.busy);
      assert.equal((await ids(alice.key, `q=${q('Error: SQLITE_BUSY: database is locked at Statement.run (node:internal)')}`))[0], ids_.busy);
      assert.equal((await ids(alice.key, `q=${q('fct orders')}`))[0], ids_.snippet);
      assert.equal((await ids(alice.key, `q=${q('認証')}`))[0], ids_.cjk);
      assert.equal((await ids(alice.key, `q=${q('鍵の管理はどこ')}`))[0], ids_.cjk);
      assert.equal((await ids(alice.key, `q=${q('signing key rotation')}`))[0], ids_.todo);
      assert.equal((await ids(alice.key, `q=${q('switching traffic to a new release')}`))[0], ids_.sheet);
      // Stop words alone still search; words found nowhere find nothing.
      assert.equal((await ok(alice.key, 'q=the')).total, 0 + (await ok(alice.key, 'q=the')).results.length);
      assert.deepEqual(await ok(alice.key, `q=${q('zyxwvut qqqq')}`), { success: true, results: [], total: 0, total_capped: false });
      assert.deepEqual(await ok(alice.key, `q=${q('!!! ???')}`), { success: true, results: [], total: 0, total_capped: false });
    });

    it('filters by types and project, pages with limit and offset, and counts the total', async () => {
      const all = await ok(alice.key, `q=${q('jose auth middleware keys migrations')}&limit=50`);
      assert.ok(all.total >= 3);
      assert.equal(all.results.length, all.total);
      const solutionsOnly = await ok(alice.key, `q=${q('busy sqlite jose')}&types=solution`);
      assert.deepEqual(
        solutionsOnly.results.map((r) => r.type),
        ['solution'],
      );
      const two = await ok(alice.key, `q=${q('jose auth middleware keys migrations')}&types=session,todo&limit=50`);
      assert.ok(two.results.every((r) => r.type === 'session' || r.type === 'todo'));
      assert.ok(two.results.some((r) => r.type === 'todo'));
      const inApi = await ok(alice.key, `q=${q('jose auth middleware keys migrations')}&project=api&limit=50`);
      assert.ok(inApi.results.length > 0 && inApi.results.every((r) => r.project === 'api'));
      const page1 = await ok(alice.key, `q=${q('jose auth middleware keys migrations')}&limit=1`);
      const page2 = await ok(alice.key, `q=${q('jose auth middleware keys migrations')}&limit=1&offset=1`);
      assert.equal(page1.results.length, 1);
      assert.equal(page1.total, all.total);
      assert.deepEqual(
        [page1.results[0].id, page2.results[0].id],
        all.results.slice(0, 2).map((r) => r.id),
      );
      assert.deepEqual((await ok(alice.key, `q=jose&offset=900`)).results, []);
    });

    it('prefer_project ranks a project first without leaving others out; snippets stay within 300 characters', async () => {
      const a = (await post(alice.key, '/v1/sessions', { title: 'Kafka consumer lag', summary: 'Lag grew on orders.', project: 'billing' })).session.id;
      const b = (await post(alice.key, '/v1/sessions', { title: 'Kafka consumer lag', summary: 'Lag grew on orders.', project: 'shipping' })).session.id;
      assert.deepEqual(await ids(alice.key, `q=${q('kafka lag')}&prefer_project=billing`), [a, b]);
      assert.deepEqual(await ids(alice.key, `q=${q('kafka lag')}&prefer_project=shipping`), [b, a]);
      const long = (await post(alice.key, '/v1/sessions', { title: 'Long notes', summary: `${'filler words here '.repeat(80)}the zeppelin broke ${'more filler text '.repeat(80)}` })).session.id;
      const hit = (await ok(alice.key, 'q=zeppelin')).results[0];
      assert.equal(hit.id, long);
      assert.ok(Array.from(hit.snippet).length <= 300, hit.snippet);
      assert.match(hit.snippet, /zeppelin/);
    });

    it('ranks the newer of two records on the same subject first, and follows updates and deletions', async () => {
      const old = (await post(alice.key, '/v1/sessions', { title: 'Redis version for the cache', summary: 'The cache runs Redis 6.2.', project: 'web' })).session.id;
      await new Promise((r) => setTimeout(r, 20));
      const newer = (await post(alice.key, '/v1/sessions', { title: 'Redis version for the cache', summary: 'Upgraded the cache to Redis 7.2.', project: 'web' })).session.id;
      assert.deepEqual((await ids(alice.key, `q=${q('which redis version does the cache use')}`)).slice(0, 2), [newer, old]);
      // Update: the new words are found at once, the old ones no more.
      const r = await s.req('PATCH', `/v1/sessions/${old}`, { key: alice.key, body: { summary: 'Moved to Valkey.' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(await ids(alice.key, 'q=valkey'), [old]);
      // Trashed and deleted records leave the results at once.
      assert.equal((await s.req('DELETE', `/v1/sheets/${ids_.sheet}`, { key: alice.key })).status, 200);
      assert.deepEqual(await ids(alice.key, `q=${q('switching traffic to a new release')}&types=sheet`), []);
      assert.equal((await s.req('POST', `/v1/sheets/${ids_.sheet}/restore`, { key: alice.key })).status, 200);
      assert.deepEqual(await ids(alice.key, `q=${q('switching traffic to a new release')}&types=sheet`), [ids_.sheet]);
      const gone = (await post(alice.key, '/v1/knowledge?type=snippets', { title: 'Narwhal helper', content: 'narwhal()' })).snippet.id;
      assert.deepEqual(await ids(alice.key, 'q=narwhal'), [gone]);
      assert.equal((await s.req('DELETE', `/v1/knowledge/${gone}`, { key: alice.key })).status, 200);
      assert.deepEqual(await ids(alice.key, 'q=narwhal'), []);
    });

    it('refuses bad input with a 400 naming the parameter', async () => {
      const bad = async (query: string, mentions: RegExp) => assertError(await search(alice.key, query), 400, 'invalid_request', mentions);
      await bad('', /\bq\b/);
      await bad('q=', /\bq\b/);
      await bad('q=%20%20', /\bq\b/);
      await bad(`q=${'x'.repeat(2001)}`, /\bq\b/);
      await bad('q=a&types=sheets', /types/);
      await bad('q=a&types=sheet,bogus', /types/);
      await bad('q=a&types=', /types/);
      await bad('q=a&limit=0', /limit/);
      await bad('q=a&limit=51', /limit/);
      await bad('q=a&limit=-1', /limit/);
      await bad('q=a&limit=ten', /limit/);
      await bad('q=a&offset=-1', /offset/);
      await bad('q=a&offset=951', /offset/);
      await bad('q=a&workspace_id=nope', /workspace_id/);
      await bad('q=a&project=', /project/);
      await bad('q=a&prefer_project=', /prefer_project/);
      await bad('q=a&sort=new', /sort/);
      assertError(await s.req('GET', '/v1/search?q=a'), 401, 'unauthorized');
    });

    it('shows each kind only to a credential with its read scope', async () => {
      const key = async (scopes: string[], workspace_id?: string) => (await post(alice.key, '/v1/api-keys', { name: 'scoped', scopes, workspace_id })).api_key as string;
      const sheetsOnly = await key(['sheets:read']);
      const hits = await ok(sheetsOnly, `q=${q('jose auth keys migrations busy')}&limit=50`);
      assert.ok(hits.results.length > 0);
      assert.ok(hits.results.every((r) => r.type === 'sheet'));
      const refused = await search(sheetsOnly, 'q=keys&types=todo');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'insufficient_scope');
      assert.equal(refused.body.required_scope, 'todos:read');
      const noTodos = await key(['sessions:read', 'knowledge:read', 'sheets:read']);
      assert.ok(!(await ok(noTodos, `q=${q('rotate signing keys')}&limit=50`)).results.some((r) => r.type === 'todo'));
      const statsOnly = await key(['stats:read']);
      const none = await search(statsOnly, 'q=jose');
      assert.equal(none.status, 403);
      assert.equal(none.body.code, 'insufficient_scope');
    });

    it('searches every workspace the caller reads, one with workspace_id, and only its own with a restricted key', async () => {
      const team = await makeTeam(s, bob, 'search team', [[alice, 'viewer']]);
      const teamSes = (await post(bob.key, '/v1/sessions', { title: 'Team flamingo runbook', summary: 'flamingo pager rotation', workspace_id: team })).session.id;
      const bobOwn = (await post(bob.key, '/v1/sessions', { title: 'Private flamingo notes', summary: 'flamingo' })).session.id;
      // Alice (a viewer) finds the team's record, never Bob's personal one; Carol (no member) neither.
      const aliceHits = await ok(alice.key, 'q=flamingo');
      assert.deepEqual(
        aliceHits.results.map((r) => [r.id, r.workspace_id]),
        [[teamSes, team]],
      );
      assert.deepEqual(await ids(carol.key, 'q=flamingo'), []);
      assert.deepEqual((await ids(bob.key, 'q=flamingo')).sort(), [teamSes, bobOwn].sort());
      assert.deepEqual(await ids(bob.key, `q=flamingo&workspace_id=${team}`), [teamSes]);
      assert.deepEqual(await ids(bob.key, `q=flamingo&workspace_id=${personal(bob)}`), [bobOwn]);
      // Another's workspace: 403; one that does not exist: 404.
      const forbidden: Res = await search(carol.key, `q=flamingo&workspace_id=${team}`);
      assert.equal(forbidden.status, 403);
      assert.equal((await search(carol.key, 'q=flamingo&workspace_id=wsp_nonexistent')).status, 404);
      // A key restricted to the team reaches only the team, and refuses the personal workspace.
      const restricted = (await post(bob.key, '/v1/api-keys', { name: 'team only', workspace_id: team })).api_key as string;
      assert.deepEqual(await ids(restricted, 'q=flamingo'), [teamSes]);
      assertError(await search(restricted, `q=flamingo&workspace_id=${personal(bob)}`), 403, 'forbidden', /restricted to workspace/);
      // Bob removes Alice: the team's records leave her results on the next request.
      assert.equal((await s.req('DELETE', `/v1/workspaces/${team}/members/${alice.userId}`, { key: bob.key })).status, 200);
      assert.deepEqual(await ids(alice.key, 'q=flamingo'), []);
    });
  });
}
