import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config.js';
import { capNote } from '../../src/modules/distill/distill.service.js';
import { parseAnswer, buildUserPrompt, USER_MAX_CHARS } from '../../src/modules/distill/distill.prompt.js';
import { assertError, createPgDatabase, dialects, startServer, type TestServer } from '../helpers.js';
import { INTERNAL_DETAIL, startFakeAi, type FakeAi } from '../sparks-fakes.js';
import { startFakeAnthropic } from '../fake-anthropic.js';
import { makeTeam } from '../teams-helpers.js';

/**
 * Optional LLM distillation (issue 54 point 7, docs/distillation.md), against loopback stand-ins of the
 * providers' APIs (test/sparks-fakes.ts: OpenAI chat completions; test/fake-anthropic.ts: Messages).
 */

const KEY = 'sk-test-distill';
const DEBOUNCE_MS = 250;
/**
 * The parallel-capture case's own server: two captures of one session sent back to back must land within the debounce, and on a
 * loaded 2-core CI machine 12 requests at once took longer than 250 ms (the second arrived after the first had been distilled, and
 * the session was rightly distilled again).
 */
const PARALLEL_DEBOUNCE_MS = 1500;

const ANSWER = {
  summary: 'Fixed the flaky login test by waiting for the session cookie.',
  decisions: ['Use cookie-based waits instead of sleeps, because sleeps were flaky on CI'],
  learnings: ['The login page sets the cookie after a redirect'],
  knowledge: [
    { title: 'ECONNREFUSED in login test', error: 'Error: connect ECONNREFUSED 127.0.0.1:5432', fix: 'Start PostgreSQL before the suite (npm run db:up).' },
    { title: 'Cookie missing', error: 'AssertionError: expected cookie sid', fix: 'Wait for the redirect before reading cookies.' },
  ],
};

const until = async <T>(what: string, fn: () => Promise<T | undefined | false>, ms = 8000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function aiEnv(fake: FakeAi, extra: Record<string, string> = {}) {
  return { AI_PROVIDER: 'openai', AI_BASE_URL: fake.url, AI_API_KEY: KEY, AI_MODEL: 'gpt-test', DISTILL_DEBOUNCE_MS: String(DEBOUNCE_MS), ...extra };
}

const record = (title: string, more: Record<string, unknown> = {}) => ({
  title,
  summary: `prompts and the closing message of ${title}`,
  project: 'demo',
  source: 'capture',
  agent: 'claude-code',
  outcome: 'The login test passes again.',
  tasks_done: ['Fix the login test'],
  errors: [{ command: 'npm test', error: 'Error: connect ECONNREFUSED 127.0.0.1:5432' }],
  prompts: ['Why does the login test fail?'],
  files_changed: ['test/login.test.ts'],
  ...more,
});

const capture = (s: TestServer, key: string, ref: string, body: unknown) => s.req('PUT', `/v1/sessions/external/${ref}`, { key, body });
const session = async (s: TestServer, key: string, id: string) => (await s.req('GET', `/v1/sessions/${id}`, { key })).body.session;
const requestsFor = (fake: FakeAi, title: string) => fake.requests.filter((r) => JSON.stringify(r.body).includes(title));

test_config();

for (const dialect of dialects()) {
  describe(`distillation is off by default [${dialect}]`, () => {
    let fake: FakeAi;
    let s: TestServer;
    before(async () => {
      fake = await startFakeAi('openai', KEY);
      s = await startServer(dialect, { env: aiEnv(fake) });
    });
    after(async () => {
      await s.close();
      await fake.close();
    });

    it('sends nothing to the provider, queues nothing, and says so in the session and the usage', async () => {
      const alice = await s.user();
      const r = await capture(s, alice.key, 'cc:off-1', record('Off by default'));
      assert.equal(r.status, 201, JSON.stringify(r.body));
      await capture(s, alice.key, 'cc:off-1', record('Off by default', { tasks_done: ['Another task'] }));
      await sleep(DEBOUNCE_MS * 3);
      assert.equal(fake.requests.length, 0, 'no request reached the provider');
      assert.equal((await s.c.db.selectFrom('session_distills').selectAll().execute()).length, 0);
      const got = await session(s, alice.key, r.body.id);
      assert.equal(got.distilled, null);
      assert.equal(got.distill_note, null);
      const usage = await s.req('GET', '/v1/distill/usage', { key: alice.key });
      assert.equal(usage.status, 200);
      assert.equal(usage.body.usage.enabled, false);
      assert.equal(usage.body.usage.tokens, 0);
      assert.deepEqual((await s.req('GET', '/v1/knowledge/suggestions', { key: alice.key })).body, { success: true, suggestions: [] });
    });
  });

  describe(`distillation on [${dialect}]`, () => {
    let fake: FakeAi;
    let s: TestServer;
    before(async () => {
      fake = await startFakeAi('openai', KEY);
      fake.reply = JSON.stringify(ANSWER);
      s = await startServer(dialect, { env: aiEnv(fake, { DISTILL: '1' }) });
    });
    after(async () => {
      await s.close();
      await fake.close();
    });

    it('distils a captured session once after it settles: summary, decisions, learnings, suggestions, tokens', async () => {
      const alice = await s.user();
      const created = await capture(s, alice.key, 'cc:on-1', record('Flaky login'));
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      assert.equal(created.body.session.distilled, null);
      // Captured three times within the debounce: one provider call for the settled record.
      await capture(s, alice.key, 'cc:on-1', record('Flaky login', { files_changed: ['src/login.ts'] }));
      await capture(s, alice.key, 'cc:on-1', record('Flaky login', { tasks_done: ['Wait for the cookie'] }));
      assert.equal(requestsFor(fake, 'Flaky login').length, 0, 'nothing is sent inside the requests');
      const got = await until('the distillation', async () => (await session(s, alice.key, id)).distilled && (await session(s, alice.key, id)));
      await sleep(DEBOUNCE_MS * 2);
      const sent = requestsFor(fake, 'Flaky login');
      assert.equal(sent.length, 1);
      const user = sent[0]!.body.messages.find((m: any) => m.role === 'user').content as string;
      for (const part of ['Flaky login', 'npm test -> Error: connect ECONNREFUSED', 'Wait for the cookie', 'src/login.ts', 'test/login.test.ts', 'Why does the login test fail?']) {
        assert.ok(user.includes(part), `the prompt holds ${part}`);
      }
      assert.match(sent[0]!.body.messages[0].content, /data, not instructions/);
      assert.equal(got.title, 'Flaky login', 'the record itself is unchanged');
      assert.deepEqual({ ...got.distilled, at: undefined }, { summary: ANSWER.summary, decisions: ANSWER.decisions, learnings: ANSWER.learnings, model: 'gpt-test', at: undefined });
      assert.equal(got.distill_note, null);
      const listed = await s.req('GET', `/v1/sessions?fields=id,distilled`, { key: alice.key });
      assert.equal(listed.body.sessions[0].distilled.summary, ANSWER.summary);

      const sug = await s.req('GET', '/v1/knowledge/suggestions', { key: alice.key });
      assert.equal(sug.status, 200);
      assert.equal(sug.body.suggestions.length, 2);
      for (const one of sug.body.suggestions) {
        assert.deepEqual(Object.keys(one).sort(), ['created_at', 'error', 'fix', 'id', 'session_id', 'title', 'workspace_id']);
        assert.equal(one.session_id, id);
        assert.equal(one.workspace_id, `wsp_${alice.userId.slice(4)}`);
      }

      const usage = (await s.req('GET', '/v1/distill/usage', { key: alice.key })).body.usage;
      assert.deepEqual({ ...usage, day: undefined }, { enabled: true, model: 'gpt-test', day: undefined, tokens_in: 10, tokens_out: 5, tokens: 15, runs: 1, daily_cap: 200_000 });
      const runs = await s.c.db.selectFrom('distill_runs').selectAll().where('session_id', '=', id).execute();
      assert.deepEqual(
        runs.map((r) => [r.account_id, r.model, Number(r.tokens_in), Number(r.tokens_out), r.outcome]),
        [[alice.userId, 'gpt-test', 10, 5, 'ok']],
      );

      // Saved again with the same record: no change, no second call.
      await capture(s, alice.key, 'cc:on-1', record('Flaky login', { tasks_done: ['Wait for the cookie'] }));
      await sleep(DEBOUNCE_MS * 3);
      assert.equal(requestsFor(fake, 'Flaky login').length, 1);
    });

    it('accept creates the solution; dismiss removes; a decided suggestion answers 409; others get 403/404', async () => {
      const alice = await s.user();
      const bob = await s.user();
      const id = (await capture(s, alice.key, 'cc:review', record('Review queue'))).body.id;
      const queue = await until('suggestions', async () => {
        const r = await s.req('GET', '/v1/knowledge/suggestions', { key: alice.key });
        return r.body.suggestions.length === 2 && r.body.suggestions;
      });
      const [first, second] = queue;
      assert.equal(first.session_id, id);

      assertError(await s.req('POST', `/v1/knowledge/suggestions/${first.id}/accept`, { key: bob.key }), 403, 'forbidden');
      assertError(await s.req('DELETE', `/v1/knowledge/suggestions/${first.id}`, { key: bob.key }), 403, 'forbidden');
      assertError(await s.req('POST', '/v1/knowledge/suggestions/ksg_nope/accept', { key: alice.key }), 404, 'not_found');
      assert.equal((await s.req('GET', '/v1/knowledge/suggestions', { key: bob.key })).body.suggestions.length, 0);
      assert.equal((await s.req('GET', '/v1/knowledge/suggestions')).status, 401);

      const accepted = await s.req('POST', `/v1/knowledge/suggestions/${first.id}/accept`, { key: alice.key });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      assert.deepEqual(Object.keys(accepted.body).sort(), ['id', 'success', 'suggestion_id']);
      assert.match(accepted.body.id, /^sol_/);
      assert.equal(accepted.body.suggestion_id, first.id);
      const entry = (await s.req('GET', `/v1/knowledge/${accepted.body.id}`, { key: alice.key })).body.solution;
      assert.deepEqual([entry.title, entry.error, entry.content, entry.tags], [first.title, first.error, first.fix, ['distilled']]);
      assertError(await s.req('POST', `/v1/knowledge/suggestions/${first.id}/accept`, { key: alice.key }), 409, 'conflict', /already accepted/);

      const dismissed = await s.req('DELETE', `/v1/knowledge/suggestions/${second.id}`, { key: alice.key });
      assert.deepEqual(dismissed.body, { success: true, id: second.id, dismissed: true });
      assertError(await s.req('DELETE', `/v1/knowledge/suggestions/${second.id}`, { key: alice.key }), 409, 'conflict', /already dismissed/);
      assert.deepEqual((await s.req('GET', '/v1/knowledge/suggestions', { key: alice.key })).body.suggestions, []);

      // Distilled again after a change: what was accepted or dismissed is not suggested again.
      await capture(s, alice.key, 'cc:review', record('Review queue', { tasks_done: ['One more'] }));
      await until('the second run', async () => requestsFor(fake, 'Review queue').length === 2);
      await sleep(100);
      assert.deepEqual((await s.req('GET', '/v1/knowledge/suggestions', { key: alice.key })).body.suggestions, []);
    });

    it('in a team: viewers see the queue, editors accept, viewers may not (403); the list needs knowledge:read', async () => {
      const owner = await s.user();
      const editor = await s.user();
      const viewer = await s.user();
      const team = await makeTeam(s, owner, 'distill team', [
        [editor, 'editor'],
        [viewer, 'viewer'],
      ]);
      const id = (await capture(s, editor.key, 'cc:team', record('Team session', { workspace_id: team }))).body.id;
      const queue = await until('team suggestions', async () => {
        const r = await s.req('GET', `/v1/knowledge/suggestions?workspace_id=${team}`, { key: viewer.key });
        return r.body.suggestions?.length === 2 && r.body.suggestions;
      });
      assert.equal(queue[0].workspace_id, team);
      assert.equal(queue[0].session_id, id);
      const denied = await s.req('POST', `/v1/knowledge/suggestions/${queue[0].id}/accept`, { key: viewer.key });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.required_role, 'editor');
      assert.equal((await s.req('DELETE', `/v1/knowledge/suggestions/${queue[0].id}`, { key: viewer.key })).status, 403);
      const ok = await s.req('POST', `/v1/knowledge/suggestions/${queue[0].id}/accept`, { key: editor.key });
      assert.equal(ok.status, 200);
      assert.equal((await s.req('GET', `/v1/knowledge/${ok.body.id}`, { key: viewer.key })).body.solution.workspace_id, team);
      // The run is charged to the member who captured the session.
      assert.equal((await s.req('GET', '/v1/distill/usage', { key: editor.key })).body.usage.runs, 1);

      const scoped = await s.req('POST', '/v1/api-keys', { key: owner.key, body: { name: 'todos only', scopes: ['todos:read'] } });
      assert.equal(scoped.status, 200, JSON.stringify(scoped.body));
      const k = scoped.body.key ?? scoped.body.api_key;
      assert.equal((await s.req('GET', `/v1/knowledge/suggestions?workspace_id=${team}`, { key: k })).status, 403);
      assert.equal((await s.req('GET', '/v1/distill/usage', { key: k })).status, 403);
    });

    it('a bad answer leaves the session intact with a note, tokens recorded; a fenced JSON answer is read', async () => {
      const alice = await s.user();
      fake.reply = 'Sure! The session fixed a test.';
      const id = (await capture(s, alice.key, 'cc:bad', record('Bad answer'))).body.id;
      const noted = await until('the note', async () => {
        const got = await session(s, alice.key, id);
        return got.distill_note && got;
      });
      assert.match(noted.distill_note, /did not answer with the JSON object asked for; it is tried again at .* \(attempt 1 of 3\)/);
      assert.equal(noted.distilled, null);
      assert.equal(noted.title, 'Bad answer');
      const run = await s.c.db.selectFrom('distill_runs').selectAll().where('session_id', '=', id).executeTakeFirstOrThrow();
      assert.equal(run.outcome, 'bad_answer');
      assert.equal(Number(run.tokens_in) + Number(run.tokens_out), 15);
      fake.reply = 'Here it is:\n```json\n' + JSON.stringify(ANSWER) + '\n```';
      const got = await until('the retry', async () => (await session(s, alice.key, id)).distilled && (await session(s, alice.key, id)));
      assert.equal(got.distilled.summary, ANSWER.summary);
      assert.equal(got.distill_note, null);
      fake.reply = JSON.stringify(ANSWER);
    });

    it('a provider failure leaves the session intact with a note, retries, and stops after 3 attempts', async () => {
      const alice = await s.user();
      fake.mode = 'http-500';
      const id = (await capture(s, alice.key, 'cc:fail', record('Provider down'))).body.id;
      const first = await until('the failure note', async () => {
        const got = await session(s, alice.key, id);
        return got.distill_note && got;
      });
      assert.match(first.distill_note, /^distillation did not complete: AI provider openai \(model gpt-test\) failed: answered HTTP 500; it is tried again at .* \(attempt 1 of 3\)$/);
      assert.ok(!first.distill_note.includes('10.1.2.3') && !first.distill_note.includes(INTERNAL_DETAIL));
      assert.equal(first.title, 'Provider down');
      const last = await until('three attempts', async () => {
        const got = await session(s, alice.key, id);
        return /after 3 attempts/.test(got.distill_note ?? '') && got;
      });
      assert.match(last.distill_note, /^distillation did not complete after 3 attempts: AI provider openai .*; it runs again when the session changes$/);
      await sleep(DEBOUNCE_MS * 10);
      assert.equal(requestsFor(fake, 'Provider down').length, 3, 'bounded: no fourth call');
      // The next change tries again, and a provider that is back distils it.
      fake.mode = 'ok';
      await capture(s, alice.key, 'cc:fail', record('Provider down', { tasks_done: ['Provider is back'] }));
      const back = await until('the distillation', async () => (await session(s, alice.key, id)).distilled && (await session(s, alice.key, id)));
      assert.equal(back.distill_note, null);
      assert.equal(requestsFor(fake, 'Provider down').length, 4);
    });
  });

  describe(`captures at once, with a debounce a loaded machine keeps [${dialect}]`, () => {
    let fake: FakeAi;
    let s: TestServer;
    before(async () => {
      fake = await startFakeAi('openai', KEY);
      fake.reply = JSON.stringify(ANSWER);
      s = await startServer(dialect, { env: aiEnv(fake, { DISTILL: '1', DISTILL_DEBOUNCE_MS: String(PARALLEL_DEBOUNCE_MS) }) });
    });
    after(async () => {
      await s.close();
      await fake.close();
    });

    it('several sessions captured at once each distil once', async () => {
      const alice = await s.user('pro');
      const titles = Array.from({ length: 6 }, (_, i) => `Parallel session ${i}`);
      // Each captured twice in a row (as a Stop and then a SessionEnd capture would), all at once.
      const first = await Promise.all(
        titles.map(async (t, i) => {
          const r = await capture(s, alice.key, `cc:par-${i}`, record(t));
          await capture(s, alice.key, `cc:par-${i}`, record(t, { tasks_done: ['again'] }));
          return r;
        }),
      );
      await sleep(PARALLEL_DEBOUNCE_MS); // nothing is distilled before the debounce: polling sooner only spends the rate limit
      await until('all distilled', async () => {
        const all = await Promise.all(first.map((r) => session(s, alice.key, r.body.id)));
        return all.every((x) => x.distilled);
      });
      await sleep(PARALLEL_DEBOUNCE_MS * 2);
      for (const t of titles) assert.equal(requestsFor(fake, t).length, 1, t);
      assert.equal((await s.req('GET', '/v1/distill/usage', { key: alice.key })).body.usage.runs, 6);
    });
  });

  describe(`the daily token cap [${dialect}]`, () => {
    let fake: FakeAi;
    let s: TestServer;
    before(async () => {
      fake = await startFakeAi('openai', KEY);
      fake.reply = JSON.stringify(ANSWER);
      s = await startServer(dialect, { env: aiEnv(fake, { DISTILL: '1', DISTILL_DAILY_TOKENS: '20' }) });
    });
    after(async () => {
      await s.close();
      await fake.close();
    });

    it("stops runs for the account once the day's tokens reach the cap, with a visible note; other accounts go on", async () => {
      const alice = await s.user();
      const bob = await s.user();
      const a1 = (await capture(s, alice.key, 'cc:cap-1', record('Cap one'))).body.id;
      await until('the first', async () => (await session(s, alice.key, a1)).distilled);
      const a2 = (await capture(s, alice.key, 'cc:cap-2', record('Cap two'))).body.id;
      await until('the second', async () => (await session(s, alice.key, a2)).distilled);
      // 30 tokens spent, cap 20: the third waits.
      const a3 = (await capture(s, alice.key, 'cc:cap-3', record('Cap three'))).body.id;
      const capped = await until('the cap note', async () => {
        const got = await session(s, alice.key, a3);
        return got.distill_note && got;
      });
      assert.equal(capped.distill_note, capNote(20));
      assert.equal(capped.distill_note, 'distillation skipped: the daily token cap of 20 was reached; it resumes tomorrow');
      assert.equal(capped.distilled, null);
      assert.equal(requestsFor(fake, 'Cap three').length, 0);
      const usage = (await s.req('GET', '/v1/distill/usage', { key: alice.key })).body.usage;
      assert.deepEqual([usage.tokens, usage.runs, usage.daily_cap], [30, 2, 20]);
      const row = await s.c.db.selectFrom('session_distills').selectAll().where('session_id', '=', a3).executeTakeFirstOrThrow();
      assert.equal(row.state, 'capped');
      assert.match(row.due_at!, /T00:00:00\.000Z$/, 'it resumes at the next UTC midnight');
      const b1 = (await capture(s, bob.key, 'cc:cap-b', record('Cap bob'))).body.id;
      await until('bob', async () => (await session(s, bob.key, b1)).distilled);
    });
  });

  describe(`the queue survives a restart, and Anthropic works too [${dialect}]`, () => {
    it('a session queued before a restart is distilled after it', async () => {
      const fake = await startFakeAnthropic({ apiKey: KEY });
      fake.reply = JSON.stringify(ANSWER);
      const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const dataDir = (await import('node:fs')).mkdtempSync((await import('node:path')).join((await import('node:os')).tmpdir(), 'sw-distill-'));
      const env = { AI_PROVIDER: 'anthropic', AI_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, AI_MODEL: 'claude-test', DISTILL: '1', DISTILL_DEBOUNCE_MS: '400' };
      try {
        const s1 = await startServer(dialect, { env, dataDir, databaseUrl: pg?.url });
        const alice = await s1.user();
        const id = (await capture(s1, alice.key, 'cc:restart', record('Before restart'))).body.id;
        await s1.close();
        assert.equal(fake.requests.length, 0);
        const s2 = await startServer(dialect, { env, dataDir, databaseUrl: pg?.url });
        try {
          const got = await until('the distillation', async () => (await session(s2, alice.key, id)).distilled && (await session(s2, alice.key, id)));
          assert.equal(got.distilled.model, 'claude-test');
          assert.equal(fake.requests.length, 1);
          assert.equal(fake.requests[0]!.path, '/v1/messages');
          const usage = (await s2.req('GET', '/v1/distill/usage', { key: alice.key })).body.usage;
          assert.deepEqual([usage.tokens_in, usage.tokens_out], [10, 5]);
        } finally {
          await s2.close();
        }
      } finally {
        await pg?.drop();
        await fake.close();
      }
    });
  });
}

function test_config() {
  describe('distillation configuration and prompt', () => {
    it('DISTILL=1 without an AI provider stops the start with a clear message', () => {
      assert.throws(
        () => loadConfig({ DISTILL: '1' }),
        (err: unknown) => err instanceof ConfigError && /DISTILL: .*AI_PROVIDER/.test(err.message),
      );
      assert.throws(() => loadConfig({ DISTILL_DAILY_TOKENS: '-1' }), /DISTILL_DAILY_TOKENS must be 0 or more/);
      const c = loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'm', DISTILL: '1' });
      assert.deepEqual(c.distill, { enabled: true, dailyTokens: 200_000, debounceMs: 30_000 });
      assert.equal(loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'm' }).distill.enabled, false);
    });

    it('reads answers defensively', () => {
      assert.equal(parseAnswer('no json here'), undefined);
      assert.equal(parseAnswer('{"summary": ""}'), undefined);
      assert.equal(parseAnswer('{"summary": 3}'), undefined);
      assert.equal(parseAnswer('[1,2]'), undefined);
      assert.equal(parseAnswer('{"summary": "x",'), undefined);
      const got = parseAnswer('```json\n{"summary":" ok ","decisions":["a",2,null,"b"],"learnings":"not a list","knowledge":[{"error":"E","fix":"F"},{"title":"no fix","error":"E2"},"x"]}\n```');
      assert.deepEqual(got, { summary: 'ok', decisions: ['a', 'b'], learnings: [], knowledge: [{ title: 'E', error: 'E', fix: 'F' }] });
      const many = parseAnswer(JSON.stringify({ summary: 's'.repeat(5000), decisions: Array(20).fill('d') }))!;
      assert.equal(many.summary.length, 2000);
      assert.equal(many.decisions.length, 5);
    });

    it('bounds the prompt whatever the record holds', () => {
      const huge = 'x'.repeat(50_000);
      const row = {
        title: huge,
        summary: huge,
        project: 'p',
        outcome: huge,
        tags: '[]',
        files_changed: JSON.stringify(Array(1000).fill(huge)),
        tasks_done: JSON.stringify(Array(200).fill(huge)),
        tasks_open: '[]',
        errors: JSON.stringify(Array(100).fill({ command: huge, error: huge })),
        prompts: JSON.stringify(Array(200).fill(huge)),
      } as any;
      assert.ok(buildUserPrompt(row).length <= USER_MAX_CHARS);
    });
  });
}
