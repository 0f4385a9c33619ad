import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, gitProject, hookRuns, removeTempDirs, runSession, tempDir, transcript, type CliResult } from '../claude-code-cli.js';
import { requestText, startFakeAnthropic, toolResults, type FakeAnthropic, type ScriptTurn } from '../fake-anthropic.js';
import { useServer } from '../server-fixture.js';
import { startGate, type ServiceGate } from '../service-gate.js';

/**
 * A day with the Claude Code plugin (issue 54), the real CLI against the scripted model (test/fake-anthropic.ts) and
 * the real service (SQLite) behind test/service-gate.ts: sessions with tasks, edits and a failing command; a handover
 * through the MCP tools; a resume; a compaction; an outage and a refused key. After each, what the next session's
 * first model request holds and what the service stores. One HOME and one project all day, as a user's.
 */

const MCP = (name: string) => `mcp__plugin_sheet-workspace_sheet-workspace__${name}`;
const PROJECT = 'day-app';
/** The budget for what the plugin adds to the first model request (tools and briefing), in characters. */
const PLUGIN_BUDGET = 8_000;
const BRIEFING_HEAD = /briefing for project "day-app"/gi;

describe('A day with the Claude Code plugin', { timeout: 240_000 }, () => {
  let gate: ServiceGate;
  let key: string;
  const fakes: FakeAnthropic[] = [];
  const { s, beforeClose } = useServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1' } });
  const home = tempDir('cc-day-home-');
  let cwd: string;
  before(async () => {
    key = (await s.user('pro')).key;
    gate = await startGate(s.url);
    cwd = gitProject(`https://github.com/acme/${PROJECT}.git`);
  });
  beforeClose(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await gate?.close();
  });
  after(() => removeTempDirs());

  async function session(o: { prompt: string; turns: ScriptTurn[]; resume?: string; env?: Record<string, string>; args?: string[]; pluginDir?: string | null; home?: string }) {
    const fake = await startFakeAnthropic();
    fakes.push(fake);
    fake.script(...o.turns);
    const env = { SHEET_WORKSPACE_URL: gate.url, SHEET_WORKSPACE_API_KEY: key, ...o.env };
    const run = await runSession({ home: o.home ?? home, cwd, prompt: o.prompt, fake, resume: o.resume, env, args: o.args, pluginDir: o.pluginDir });
    for (const h of hookRuns(run)) assert.equal(h.exitCode, 0, `hook ${h.name} exited ${h.exitCode}`);
    const first = fake.mainRequests()[0]?.body;
    return { run, fake, id: run.result.session_id as string, first, seen: requestText(first) };
  }
  const get = async (p: string) => {
    const r = await s.req('GET', p, { key });
    assert.equal(r.status, 200, `${p}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const record = (id: string, ok: (x: any) => boolean = () => true) =>
    eventually(
      async () => ((await get(`/v1/sessions?project=${PROJECT}&limit=100`)).sessions as any[]).find((x) => x.external_id === `cc:${id}` && ok(x)),
      `the record of ${id}`,
      async () => JSON.stringify((await get(`/v1/sessions?project=${PROJECT}&limit=100`)).sessions.find((x: any) => x.external_id === `cc:${id}`)),
      15_000,
    );
  /** The PUT of this session's SessionEnd capture (the sender's), once the service answered it. */
  const captured = (id: string, since: number) =>
    eventually(async () => (gate.requests.slice(since).some((r) => r.method === 'PUT' && r.url === `/v1/sessions/external/cc:${id}`) ? true : undefined), `the capture of ${id}`, undefined, 15_000);
  const briefings = (text: string) => text.match(BRIEFING_HEAD)?.length ?? 0;
  /** What the plugin adds to the first request: tools offered and the text the model is shown. */
  const size = (body: any) => JSON.stringify(body.tools ?? []).length + requestText(body).length;
  const write = (file: string, content: string): ScriptTurn => [{ type: 'tool_use', name: 'Write', input: { file_path: path.join(cwd, file), content } }];
  const bash = (command: string): ScriptTurn => [{ type: 'tool_use', name: 'Bash', input: { command, description: command } }];
  const taskCreate = (subject: string): ScriptTurn => [{ type: 'tool_use', name: 'TaskCreate', input: { subject, description: subject, activeForm: subject } }];
  const taskUpdate = (taskId: string, status: string): ScriptTurn => [{ type: 'tool_use', name: 'TaskUpdate', input: { taskId, status } }];
  const say = (text: string): ScriptTurn => [{ type: 'text', text }];
  const contextOf = (run: CliResult, id: string, hookEvent = 'SessionStart') =>
    transcript(home, id)
      .filter((l) => l.type === 'attachment' && l.attachment?.type === 'hook_additional_context' && l.attachment.hookEvent === hookEvent)
      .map((l) => (l.attachment.content as string[]).join('\n'));

  let handoverSession = '';

  it('1. a session with tasks, an edit and a failing command: the record says what was done, titled by the work', async () => {
    const one = await session({
      prompt: 'Good morning. Pick up where we left off',
      turns: [
        taskCreate('Fix the parser'),
        taskCreate('Document the grammar'),
        taskUpdate('1', 'in_progress'),
        write('src/parser.ts', 'export const parse = (s: string) => Number(s);\n'),
        bash('ls /nonexistent-dir'),
        taskUpdate('1', 'completed'),
        say('The parser now accepts exponents. The grammar docs are still to write.'),
      ],
    });
    const saved = await record(one.id, (x) => x.tasks_done.length > 0);
    assert.equal(saved.title, 'Fix the parser', 'the title comes from the work, not the first prompt');
    assert.deepEqual([saved.source, saved.agent], ['capture', 'claude-code']);
    assert.match(saved.outcome, /^The parser now accepts exponents/);
    assert.deepEqual(saved.tasks_done, ['Fix the parser']);
    assert.deepEqual(saved.tasks_open, ['Document the grammar']);
    assert.deepEqual(saved.files_changed, ['src/parser.ts']);
    assert.equal(saved.errors.length, 1);
    assert.equal(saved.errors[0].command, 'ls /nonexistent-dir');
    assert.match(saved.errors[0].error, /cannot access '\/nonexistent-dir': No such file or directory/);
    assert.match(saved.summary, /^Outcome: The parser now accepts exponents/);
    const todoSyncs = gate.requests.filter((r) => r.method === 'POST' && r.url === '/v1/todos');
    assert.ok(todoSyncs.length > 0 && todoSyncs.every((r) => JSON.parse(r.body).session_ref === `cc:${one.id}`), 'every todo sync names its session');
  });

  it("2. the next session is briefed with the last session's outcome, files and failed command, without any handover; the plugin adds at most 8,000 characters", async () => {
    // A large store: the briefing fills its budget.
    const todos = Array.from({ length: 80 }, (_, i) => ({ content: `Backlog item ${i} ${'x'.repeat(120)}`, status: 'pending' }));
    assert.equal((await s.req('POST', '/v1/todos', { key, body: { project: PROJECT, todos } })).status, 200);
    handoverSession = randomUUID();
    const since = gate.requests.length;
    const two = await session({
      prompt: 'Write a handover for the next session',
      args: ['--session-id', handoverSession],
      turns: [
        [{ type: 'tool_use', id: 'toolu_search', name: 'ToolSearch', input: { query: `select:${MCP('save_session')},${MCP('create_handover')}` } }],
        [
          {
            type: 'tool_use',
            id: 'toolu_save',
            name: MCP('save_session'),
            input: {
              title: 'Parser done; grammar docs next (curated)',
              summary: 'Curated: the parser accepts exponents.',
              project: PROJECT,
              tags: ['claude-code', 'handover'],
              external_id: `cc:${handoverSession}`,
            },
          },
        ],
        (body) => {
          // The tool result's text holds the saved session (and may say more after it): its id.
          const id = /"id"\s*:\s*"(ses_[A-Za-z0-9]+)"/.exec(toolResults(body).get('toolu_save')?.content ?? '')?.[1];
          return [{ type: 'tool_use', id: 'toolu_handover', name: MCP('create_handover'), input: { session_id: id, next_steps: ['Document the grammar'], notes: 'Mind the exponents.' } }];
        },
        say('Handover saved: the grammar docs are next.'),
      ],
    });
    const briefing = contextOf(two.run, two.id)[0] ?? '';
    assert.equal(briefings(two.seen), 1, 'briefed once');
    assert.ok(briefing.length <= 6_000, `the default budget: ${briefing.length}`);
    assert.match(briefing, /The parser now accepts exponents/, "the last session's outcome");
    assert.match(briefing, /src\/parser\.ts/, "the last session's files");
    assert.match(briefing, /ls \/nonexistent-dir/, "the last session's failed command");

    // The handover's curated title survives the SessionEnd capture, which still adds what it saw.
    await captured(handoverSession, since);
    const kept = await record(handoverSession);
    const calls = [...two.fake.mainRequests().map((r) => toolResults(r.body))].flatMap((m) => [...m.entries()]).map(([k, v]) => `${k}: ${v.is_error ? 'ERROR ' : ''}${v.content.slice(0, 300)}`);
    assert.equal(kept.source, 'curated', `the MCP calls: ${calls.join(' | ')}`);
    assert.equal(kept.title, 'Parser done; grammar docs next (curated)');
    assert.equal(kept.summary, 'Curated: the parser accepts exponents.');
    assert.ok(kept.handover_id, 'the handover is linked to its session');

    // The same first request with the plugin off (a fresh HOME without it): the difference is the plugin's.
    const off = await session({ prompt: 'Write a handover for the next session', turns: [say('Nothing to do.')], pluginDir: null, home: tempDir('cc-day-off-') });
    const added = size(two.first) - size(off.first);
    assert.ok(
      added <= PLUGIN_BUDGET,
      `the plugin added ${added} characters (MCP tool names among them: ${(requestText(two.first).match(/mcp__plugin_sheet-workspace/g) ?? []).length}; tools ${JSON.stringify(two.first.tools).length - JSON.stringify(off.first.tools).length}, briefing ${briefing.length})`,
    );
  });

  it('3. a resumed session carries one briefing; its capture keeps the curated title and adds the files', async () => {
    const since = gate.requests.length;
    const three = await session({ prompt: 'Continue with the grammar docs', resume: handoverSession, turns: [write('docs/grammar.md', '# Grammar\n'), say('Grammar documented in docs/grammar.md.')] });
    assert.equal(briefings(three.seen), 1, 'one briefing in the resumed conversation, not two');
    await captured(handoverSession, since);
    const kept = await record(handoverSession, (x) => x.files_changed.includes('docs/grammar.md'));
    assert.equal(kept.title, 'Parser done; grammar docs next (curated)');
  });

  it('4. a compaction re-briefs briefly (the compacted context may have lost the briefing)', async () => {
    const four = await session({ prompt: '/compact', resume: handoverSession, turns: [] });
    const hooks = hookRuns(four.run).map((h) => h.name);
    if (!hooks.some((h) => h.startsWith('SessionStart:compact'))) {
      // Print mode of this CLI did not compact offline: what it ran is in the message.
      assert.fail(`no SessionStart:compact hook ran: ${hooks.join(', ')}`);
    }
    const after = contextOf(four.run, handoverSession).at(-1) ?? '';
    assert.ok(after.length > 0 && after.length <= 1_500, `the short briefing after a compaction: ${after.length} characters`);
  });

  it('5. the service down: the context says so in one line, and what the session did waits; back up, it is sent before the briefing is read', async () => {
    await gate.setMode('down');
    let five;
    try {
      five = await session({ prompt: 'Work offline', turns: [write('src/offline.ts', 'x\n'), say('Offline work is written to src/offline.ts.')] });
      assert.match(five.seen, /Sheet Workspace: the service at \S+ could not be reached \(connection refused\)[^\n]*sent when the service answers again/);
      assert.match(five.run.stdout, /could not be reached/, 'the user is told (systemMessage)');
    } finally {
      await gate.setMode('up');
    }

    // 6. A refused key: said too. (What it captures is kept under that key and never sent with another.)
    const six = await session({ prompt: 'Try with the old key', env: { SHEET_WORKSPACE_API_KEY: 'sk_live_revoked0000000000000000' }, turns: [say('Nothing done.')] });
    assert.match(six.seen, /Sheet Workspace: the service at \S+ refused the API key \(401\)/);

    // 7. Back: the offline session is sent first, so the briefing already names it.
    const seven = await session({ prompt: 'Back online', turns: [say('Online again.')] });
    const offline = await record(five.id);
    assert.deepEqual(offline.files_changed, ['src/offline.ts']);
    assert.doesNotMatch(seven.seen, /could not be reached|refused the API key/);
    assert.match(seven.seen, /Offline work is written to src\/offline\.ts/, 'the briefing names the session the outage held back');
  });
});
