import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, filesUnder, gitProject, hookRuns, PLUGIN_DIR, removeTempDirs, REPO_ROOT, runCli, runSession, cliEnv, tempDir, transcript, type CliResult } from '../claude-code-cli.js';
import { requestText, startFakeAnthropic, toolResults, type FakeAnthropic, type ScriptTurn } from '../fake-anthropic.js';
import { useServer } from '../server-fixture.js';
import { startGate, type ServiceGate } from '../service-gate.js';

/**
 * The Claude Code plugin (plugins/claude-code) end to end: the real CLI from the devDependency, run
 * offline in a temp HOME against test/fake-anthropic.ts, its hooks and MCP client talking to the real
 * service (SQLite) through test/service-gate.ts. Print mode (-p) runs the same hooks as an interactive
 * session; what the harness relies on is listed in test/claude-code-cli.ts.
 */

const MCP_SERVER = Object.keys(JSON.parse(fs.readFileSync(path.join(PLUGIN_DIR, '.mcp.json'), 'utf8')).mcpServers)[0];
const mcpTool = (name: string) => `mcp__plugin_sheet-workspace_${MCP_SERVER}__${name}`;
const spoolDir = (home: string) => path.join(home, '.sheet-workspace', 'spool');
/** What waits to be sent: the capture hooks' inbox (a sender's lock aside) and the spool. */
const waiting = (home: string) => [...filesUnder(path.join(home, '.sheet-workspace', 'inbox')), ...filesUnder(spoolDir(home))].filter((f) => !path.basename(f).startsWith('.sender.lock'));
/** The budget for a hook with the service down or hanging, plus the CLI's own bookkeeping. */
const HOOK_BUDGET_MS = 3_500;
/** How long after an outage the test waits for everything spooled to arrive (the plugin's background sender gives up on one request after 5 s). */
const SENDER_GRACE_MS = 20_000;

describe('Claude Code plugin with the real CLI', { timeout: 300_000 }, () => {
  let gate: ServiceGate;
  let key: string;
  const fakes: FakeAnthropic[] = [];

  // The tests poll the service while detached senders deliver; the plan's request limit is tested elsewhere.
  const { s, beforeClose } = useServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1' } });
  before(async () => {
    key = (await s.user('pro')).key;
    gate = await startGate(s.url);
  });
  beforeClose(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await gate?.close();
  });
  after(() => removeTempDirs());

  const serviceEnv = (extra: Record<string, string> = {}) => ({ SHEET_WORKSPACE_URL: gate.url, SHEET_WORKSPACE_API_KEY: key, ...extra });

  /** One session with its own fake model scripted with `turns`. */
  async function session(o: { home: string; cwd: string; prompt: string; turns: ScriptTurn[]; resume?: string; pluginDir?: string | null; env?: Record<string, string> }) {
    const fake = await startFakeAnthropic();
    fakes.push(fake);
    fake.script(...o.turns);
    const run = await runSession({ home: o.home, cwd: o.cwd, prompt: o.prompt, fake, resume: o.resume, pluginDir: o.pluginDir, env: serviceEnv(o.env) });
    for (const h of hookRuns(run)) assert.equal(h.exitCode, 0, `hook ${h.name} exited ${h.exitCode}`);
    return { run, fake, id: run.result.session_id as string };
  }

  const get = async (urlPath: string) => {
    const r = await s.req('GET', urlPath, { key });
    assert.equal(r.status, 200, `${urlPath}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  /** The value of `probe` once `ok` holds (a detached sender may still be delivering), else a failure naming the last one. */
  const until = async <T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs?: number) => {
    let last: T | undefined;
    try {
      return await eventually(async () => ((last = await probe()), ok(last) ? last : undefined), what, undefined, timeoutMs);
    } catch (e) {
      throw new Error(`${(e as Error).message}; last seen: ${JSON.stringify(last)}`);
    }
  };
  const sessionsOf = async (project: string) => (await get(`/v1/sessions?project=${project}&limit=100`)).sessions as any[];
  const todosOf = async (project: string) => (await get(`/v1/todos?project=${project}`)).todos as any[];
  const write = (file: string, content: string): ScriptTurn => [{ type: 'tool_use', name: 'Write', input: { file_path: file, content } }];
  const edit = (file: string, from: string, to: string): ScriptTurn => [{ type: 'tool_use', name: 'Edit', input: { file_path: file, old_string: from, new_string: to } }];
  const taskCreate = (subject: string): ScriptTurn => [{ type: 'tool_use', name: 'TaskCreate', input: { subject, description: `${subject}, properly`, activeForm: `Doing: ${subject}` } }];
  const taskUpdate = (taskId: string, status: string): ScriptTurn => [{ type: 'tool_use', name: 'TaskUpdate', input: { taskId, status } }];
  const say = (text: string): ScriptTurn => [{ type: 'text', text }];

  it('claude plugin validate: --strict for the plugin and the marketplace, --profile directory for the plugin', async () => {
    const home = tempDir('cc-home-');
    // --profile directory checks a plugin folder only (on a marketplace it fails: "needs a plugin folder"); its own
    // warnings (no icon, no privacy policy URL) fail only together with --strict, so the two run apart.
    for (const args of [
      ['--strict', PLUGIN_DIR],
      ['--profile', 'directory', PLUGIN_DIR],
      ['--strict', REPO_ROOT],
    ]) {
      const r = await runCli(['plugin', 'validate', ...args], { cwd: home, env: cliEnv(home, undefined) });
      assert.equal(r.code, 0, `validate ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /✔ Validation passed/);
      assert.doesNotMatch(r.stdout, /✘/);
    }
  });

  it('installs with marketplace add + install; the installed plugin captures and its MCP tools answer from our server', async () => {
    const home = tempDir('cc-home-');
    const env = cliEnv(home, undefined);
    const added = await runCli(['plugin', 'marketplace', 'add', REPO_ROOT], { cwd: home, env });
    assert.equal(added.code, 0, added.stdout + added.stderr);
    const marketplace = /Successfully added marketplace: (\S+)/.exec(added.stdout)?.[1];
    assert.ok(marketplace, added.stdout);
    const installed = await runCli(['plugin', 'install', `sheet-workspace@${marketplace}`], { cwd: home, env });
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    assert.match(installed.stdout, /Successfully installed plugin: sheet-workspace@/);
    const listed = await runCli(['plugin', 'list'], { cwd: home, env });
    assert.match(listed.stdout, new RegExp(`sheet-workspace@${marketplace}[\\s\\S]*enabled`));

    await s.req('POST', '/v1/todos', { key, body: { project: 'install-app', todos: [{ content: 'Seeded todo INSTALL-MARK', status: 'pending' }] } });
    const cwd = gitProject('git@github.com:acme/install-app.git');
    const { fake, id } = await session({
      home,
      cwd,
      pluginDir: null,
      prompt: 'What is open?',
      // MCP tools are deferred in 2.1.332: the model loads their schemas with ToolSearch (which also waits for
      // the server to connect), then calls them.
      turns: [
        [{ type: 'tool_use', name: 'ToolSearch', input: { query: `select:${mcpTool('list_todos')},${mcpTool('get_briefing')}` }, id: 'toolu_search' }],
        [{ type: 'tool_use', name: mcpTool('list_todos'), input: { project: 'install-app' }, id: 'toolu_list' }],
        say('One seeded todo is open.'),
      ],
    });
    const [first, second, third] = fake.mainRequests();
    const search = toolResults(second.body).get('toolu_search');
    assert.ok(search && !search.is_error, JSON.stringify(search));
    const loaded = JSON.stringify([search.content, second.body.tools]);
    for (const tool of ['list_todos', 'get_briefing']) assert.ok(loaded.includes(mcpTool(tool)), `${tool} is offered over MCP`);
    const result = toolResults(third.body).get('toolu_list')!;
    assert.equal(result.is_error, false, result.content);
    assert.match(result.content, /INSTALL-MARK/, 'the tool result came from our server');
    assert.match(requestText(first.body), /INSTALL-MARK/, 'the installed plugin briefed the session');
    const saved = await eventually(async () => (await sessionsOf('install-app')).find((x) => x.external_id === `cc:${id}`), 'the session record');
    assert.ok(saved.tags.includes('claude-code'));
  });

  it('briefs a new session with the latest handover and the newest open todos, within 10,000 characters', async () => {
    const project = 'brief-app';
    const ses = (await s.req('POST', '/v1/sessions', { key, body: { title: 'Earlier work', summary: 'Set up the launcher.', project } })).body.session;
    const handover = await s.req('POST', '/v1/sessions/handover', {
      key,
      body: { session_id: ses.id, next_steps: ['Calibrate the NEXT-STEP-MARK thrusters'], notes: 'Mind the HANDOVER-NOTE-MARK valve.' },
    });
    assert.equal(handover.status, 200, JSON.stringify(handover.body));
    // ~24,000 characters of open todos, oldest first; then one of another project.
    for (let batch = 0; batch < 2; batch++) {
      const todos = Array.from({ length: 100 }, (_, i) => ({ content: `Open todo ${batch * 100 + i} ${'x'.repeat(100)}`, status: 'pending' }));
      assert.equal((await s.req('POST', '/v1/todos', { key, body: { project, todos } })).status, 200);
    }
    await s.req('POST', '/v1/todos', {
      key,
      body: {
        project,
        todos: [
          { content: 'Newest todo NEWEST-MARK', status: 'in_progress' },
          { content: 'Done DONE-MARK', status: 'completed' },
        ],
      },
    });
    await s.req('POST', '/v1/todos', { key, body: { project: 'other-app', todos: [{ content: 'OTHER-PROJECT-MARK', status: 'pending' }] } });

    const home = tempDir('cc-home-');
    const { fake, id } = await session({ home, cwd: gitProject('https://github.com/acme/brief-app.git'), prompt: 'Where were we?', turns: [say('Calibrating.')] });
    const context = transcript(home, id).find((l) => l.type === 'attachment' && l.attachment?.type === 'hook_additional_context' && l.attachment.hookEvent === 'SessionStart');
    assert.ok(context, 'SessionStart gave additional context');
    const briefing: string = context.attachment.content.join('\n');
    assert.ok(briefing.length <= 10_000, `briefing is ${briefing.length} characters`);
    assert.ok(briefing.length > 5_000, 'the budget is used, not wasted');
    assert.match(briefing, /NEXT-STEP-MARK/);
    assert.match(briefing, /HANDOVER-NOTE-MARK/);
    assert.match(briefing, /NEWEST-MARK/);
    assert.doesNotMatch(briefing, /Open todo 0 /, 'the oldest todos are left out first');
    assert.doesNotMatch(briefing, /DONE-MARK|OTHER-PROJECT-MARK/);
    assert.match(briefing, /list_todos/, 'says how to read what was left out');
    const seen = requestText(fake.mainRequests()[0].body);
    assert.ok(seen.includes(briefing), 'the model received the briefing as it was given');
  });

  it('saves one session record with the files it changed, updates it on resume, and keeps tasks as todos', async () => {
    const home = tempDir('cc-home-');
    const cwd = gitProject();
    const engine = path.join(cwd, 'src', 'engine.ts');
    const first = await session({
      home,
      cwd,
      prompt: 'Build the engine and plan the launch',
      turns: [
        write(engine, 'export const thrust = 1;\n'),
        edit(engine, 'thrust = 1', 'thrust = 2'),
        write(path.join(cwd, 'docs', 'launch.md'), '# Launch\n'),
        taskCreate('Add launch checklist'),
        taskCreate('Wire telemetry'),
        taskUpdate('1', 'in_progress'),
        taskUpdate('2', 'completed'),
        say('Engine built; the checklist is in progress.'),
      ],
    });
    assert.equal(fs.readFileSync(engine, 'utf8'), 'export const thrust = 2;\n', 'the scripted tools really ran');
    const saved = await eventually(async () => (await sessionsOf('rocket-app')).find((x) => x.external_id === `cc:${first.id}`), 'the session record');
    assert.deepEqual([...saved.files_changed].sort(), ['docs/launch.md', 'src/engine.ts']);
    assert.ok(saved.tags.includes('claude-code'));
    assert.match(`${saved.title}\n${saved.summary}`, /Build the engine/);
    assert.match(saved.summary, /checklist is in progress/, 'the last assistant message is in the summary');
    const pairs = async () => (await todosOf('rocket-app')).map((t) => `${t.content}: ${t.status}`).sort();
    await until(pairs, (v) => v.join() === 'Add launch checklist: in_progress,Wire telemetry: completed', 'the tasks as todos');

    await session({
      home,
      cwd,
      resume: first.id,
      prompt: 'Finish the launch script',
      turns: [write(path.join(cwd, 'src', 'launch.ts'), 'launch();\n'), taskUpdate('1', 'completed'), say('Launch script written.')],
    });
    const after = await eventually(async () => {
      const mine = (await sessionsOf('rocket-app')).filter((x) => x.external_id === `cc:${first.id}`);
      return mine.length === 1 && mine[0].files_changed.includes('src/launch.ts') ? mine : undefined;
    }, 'the resumed session in the same record');
    assert.equal(after[0].id, saved.id, 'same record, not a new one');
    assert.deepEqual([...after[0].files_changed].sort(), ['docs/launch.md', 'src/engine.ts', 'src/launch.ts']);
    assert.ok(after[0].updatedAt, 'updatedAt is set');
    const updates = (await s.events('session.updated')).filter((e) => e.data.session_id === saved.id);
    assert.ok(
      updates.some((e) => e.data.changes.includes('files_changed')),
      'session.updated names the changed files',
    );
    await until(pairs, (v) => v.join() === 'Add launch checklist: completed,Wire telemetry: completed', 'the task completed on resume');

    // A later session that plans the same task again finds the todo instead of adding one, and is briefed.
    const later = await session({ home, cwd, prompt: 'Again', turns: [taskCreate('Add launch checklist'), say('Reopened.')] });
    await until(pairs, (v) => v.join() === 'Add launch checklist: pending,Wire telemetry: completed', 'the same todo reopened, not a second one');
    await until(
      async () => (await sessionsOf('rocket-app')).length,
      (n) => n === 2,
      'two Claude Code sessions, two records',
    );
    assert.match(requestText(later.fake.mainRequests()[0].body), /rocket-app/);
  });

  it('with the service down, dropping connections or hanging, hooks return in time and exit 0; back up, nothing is lost', async () => {
    const home = tempDir('cc-home-');
    const cwd = gitProject('https://gitlab.example.com/acme/outage-app.git');
    const within = (run: CliResult, label: string) => {
      for (const h of hookRuns(run)) assert.ok(h.ms < HOOK_BUDGET_MS, `${label}: hook ${h.name} took ${h.ms} ms`);
      const start = transcript(home, run.result.session_id).find((l) => l.type === 'attachment' && l.attachment?.type === 'hook_success' && l.attachment.hookEvent === 'SessionStart');
      if (start) assert.ok(start.attachment.durationMs < HOOK_BUDGET_MS, `${label}: SessionStart took ${start.attachment.durationMs} ms`);
      assert.doesNotMatch(run.stderr, /SessionEnd hook .* failed/, `${label}: SessionEnd finished within its 1.5 s`);
    };
    const outage = async (mode: 'down' | 'drop' | 'hang') => {
      await gate.setMode(mode);
      const file = `src/${mode}.ts`;
      const run = await session({ home, cwd, prompt: `Work while the service is ${mode}`, turns: [write(path.join(cwd, file), 'x\n'), taskCreate(`Task while ${mode}`), say('Written.')] });
      within(run.run, mode);
      return { ...run, file };
    };
    try {
      const runs = [await outage('down'), await outage('drop'), await outage('hang')];
      const spooled = waiting(home);
      assert.ok(spooled.length > 0, 'what could not be sent waits');
      for (const dir of ['inbox', 'spool']) {
        const folder = path.join(home, '.sheet-workspace', dir);
        if (fs.existsSync(folder)) assert.equal(fs.statSync(folder).mode & 0o777, 0o700, folder);
      }
      for (const f of spooled) assert.equal(fs.statSync(f).mode & 0o777, 0o600, f);
      assert.equal((await sessionsOf('outage-app')).length, 0, 'nothing reached the service yet');

      await gate.setMode('up');
      const up = await session({ home, cwd, prompt: 'Back online', turns: [say('Online again.')] });
      const all = await eventually(
        async () => {
          const list = await sessionsOf('outage-app');
          return list.length === 4 ? list : undefined;
        },
        'all four sessions',
        async () =>
          `stored: ${JSON.stringify((await sessionsOf('outage-app')).map((x) => [x.external_id, x.files_changed]))}; waiting: ${waiting(home)
            .map((f) => path.basename(f))
            .join(' ')}`,
        // A detached sender left by the hanging session may hold entries until its request times out.
        SENDER_GRACE_MS,
      );
      const byRef = new Map(all.map((x) => [x.external_id, x]));
      for (const r of runs) assert.deepEqual(byRef.get(`cc:${r.id}`)?.files_changed, [r.file]);
      assert.ok(byRef.has(`cc:${up.id}`));
      await until(
        async () =>
          (await todosOf('outage-app'))
            .map((t) => t.content)
            .sort()
            .join(),
        (v) => v === 'Task while down,Task while drop,Task while hang',
        'the three todos',
        SENDER_GRACE_MS,
      );
      await eventually(async () => (waiting(home).length === 0 ? true : undefined), 'the inbox and the spool to drain', undefined, SENDER_GRACE_MS);
    } finally {
      await gate.setMode('up');
    }
  });

  it('never sends secrets or <private> text: not to the service, not into a later briefing', async () => {
    const home = tempDir('cc-home-');
    const cwd = gitProject('https://github.com/acme/secret-app.git');
    const secrets = {
      stripe: `sk_live_${randomBytes(12).toString('hex')}`,
      aws: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
      github: `ghp_${randomBytes(18).toString('hex')}`,
      slack: `xoxb-123456789012-${randomBytes(8).toString('hex')}`,
      password: `hunter${randomBytes(4).toString('hex')}`,
      private: `PRIVATE-${randomBytes(4).toString('hex')}`,
    };
    const first = await session({
      home,
      cwd,
      prompt: `Deploy with ${secrets.stripe} and password=${secrets.password} <private>the vault code is ${secrets.private}</private> now`,
      turns: [write(path.join(cwd, 'src', 'config.ts'), `export const aws = '${secrets.aws}';\n`), taskCreate(`Rotate ${secrets.github} soon`), say(`Deployed; Slack token ${secrets.slack} noted.`)],
    });
    assert.match(requestText(first.fake.mainRequests()[0].body), new RegExp(secrets.stripe), 'the prompt itself went to the model, as typed');
    const record = await eventually(async () => (await sessionsOf('secret-app')).find((x) => x.external_id === `cc:${first.id}`), 'the session record');
    assert.match(`${record.title}\n${record.summary}`, /Deploy with/);
    const [todo] = await until(
      () => todosOf('secret-app'),
      (v) => v.length === 1,
      'the task as a todo',
    );
    assert.match(todo.content, /^Rotate .* soon$/);

    const later = await session({ home, cwd, prompt: 'What next?', turns: [say('Next.')] });
    assert.match(requestText(later.fake.mainRequests()[0].body), /Rotate/, 'the briefing shows the redacted todo');
    const sent = gate.requests.map((r) => `${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`).join('\n');
    const stored = filesUnder(s.dataDir)
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('\n');
    const laterModel = later.fake.requests.map((r) => JSON.stringify(r.body)).join('\n');
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(!sent.includes(secret), `${name} secret reached the service`);
      assert.ok(!stored.includes(secret), `${name} secret is stored`);
      assert.ok(!laterModel.includes(secret), `${name} secret reached a later session's model`);
    }
  });

  it('captures nothing with SHEET_WORKSPACE_CAPTURE=0 in the project settings', async () => {
    const home = tempDir('cc-home-');
    const cwd = gitProject('https://github.com/acme/quiet-app.git');
    fs.mkdirSync(path.join(cwd, '.claude'));
    fs.writeFileSync(path.join(cwd, '.claude', 'settings.json'), JSON.stringify({ env: { SHEET_WORKSPACE_CAPTURE: '0' } }));
    const { id } = await session({ home, cwd, prompt: 'Quietly', turns: [write(path.join(cwd, 'src', 'quiet.ts'), 'q\n'), taskCreate('Quiet task'), say('Done quietly.')] });
    await new Promise((r) => setTimeout(r, 1_500)); // room for a detached sender, were there one
    const writes = gate.requests.filter((r) => r.method !== 'GET' && !r.url.startsWith('/mcp') && (r.url.includes(id) || r.body.includes('quiet-app') || r.body.includes('Quiet task')));
    assert.deepEqual(
      writes.map((r) => `${r.method} ${r.url}`),
      [],
    );
    assert.equal((await sessionsOf('quiet-app')).length, 0);
    assert.equal((await todosOf('quiet-app')).length, 0);
    assert.deepEqual(waiting(home), []);
  });
});
