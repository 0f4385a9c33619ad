// The hook program as Claude Code runs it (a child process, event JSON on stdin) against the real service.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { dialects } from '../helpers.js';
import { outage, until } from '../plugin-helpers.js';
import { useServer } from '../server-fixture.js';
import { HOOK_SCRIPT } from '../plugin-modules.js';

interface HookRun {
  code: number | null;
  stdout: string;
  ms: number;
}

function runHook(event: string, payload: unknown, env: Record<string, string>): Promise<HookRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [HOOK_SCRIPT, event], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stdin.on('error', () => {}); // a hook that keeps nothing may exit before it reads stdin
  child.stdin.end(JSON.stringify(payload));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, ms: performance.now() - started })));
}

/**
 * What node alone takes to start on this machine right now, beyond an idle machine's ~60 ms: the hook's
 * limits (1.5 s for SessionEnd, 3 s for the rest) count from its spawn, so a loaded test box adds this much.
 */
async function startupSlack(): Promise<number> {
  const started = performance.now();
  await new Promise((r) => spawn(process.execPath, ['-e', '0']).on('close', r));
  return Math.max(0, performance.now() - started - 60);
}

/** The background sender a slow SessionEnd leaves behind finishes within its own 20 s budget. */
async function drained(list: () => string[], ms = 20_000) {
  const until = Date.now() + ms;
  while (list().length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return list();
}

const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const userLine = (text: string) => line({ type: 'user', message: { role: 'user', content: text } });
const textLine = (text: string) => line({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
const writeLine = (file: string) => line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't', name: 'Write', input: { file_path: file, content: '' } }] } });

for (const dialect of dialects()) {
  describe(`plugin hook program against the service [${dialect}]`, () => {
    let key: string;
    let tmp: string;
    let repo: string;
    let n = 0;
    // Background senders deliver while the tests poll; the plan's request limit is tested elsewhere.
    const { s } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
    before(async () => {
      key = (await s.user('pro')).key;
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-hook-'));
      repo = path.join(tmp, 'checkout');
      fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
      fs.writeFileSync(path.join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/rocket-app.git\n');
    });
    after(async () => {
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    /** A fresh HOME and spool per case, so cases see only their own spool. */
    function setup(extra: Record<string, string> = {}) {
      const home = path.join(tmp, `home${n++}`);
      fs.mkdirSync(home);
      const env = { HOME: home, SHEET_WORKSPACE_URL: s.url, SHEET_WORKSPACE_API_KEY: key, ...extra };
      const spoolDir = path.join(home, '.sheet-workspace', 'spool');
      const spooled = () => (fs.existsSync(spoolDir) ? fs.readdirSync(spoolDir) : []);
      return { home, env, spoolDir, spooled };
    }
    function transcriptFile(home: string, text: string) {
      const file = path.join(home, 'transcript.jsonl');
      fs.writeFileSync(file, text);
      return file;
    }
    const sessionsOf = async (project = 'rocket-app') => (await s.req('GET', `/v1/sessions?project=${project}`, { key })).body.sessions as any[];
    const todosOf = async (project: string) => (await s.req('GET', `/v1/todos?project=${project}`, { key })).body.todos as any[];

    it('SessionEnd saves one session per session id; a resumed session updates the same record', async () => {
      const { home, env, spooled } = setup();
      const sessionId = `11111111-2222-3333-4444-${dialect === 'sqlite' ? '000000000001' : '000000000002'}`;
      const file = transcriptFile(home, userLine('Add a launch checklist') + writeLine(`${repo}/docs/launch.md`) + textLine('Checklist written.'));
      const payload = { session_id: sessionId, transcript_path: file, cwd: repo, hook_event_name: 'SessionEnd', reason: 'other' };
      const first = await runHook('SessionEnd', payload, env);
      assert.deepEqual([first.code, first.stdout], [0, '']);
      // With the service up and time left (it sends until 0.7 s after its start), SessionEnd sends the session
      // itself instead of starting a second node process for it: nothing is left in the spool when it returns.
      if (first.ms < 500) assert.deepEqual(spooled(), [], `SessionEnd returned after ${first.ms} ms with the session still spooled`);
      assert.deepEqual(await drained(spooled), []); // sent, or handed to the background sender, which sends it
      const [saved] = (await sessionsOf()).filter((x) => x.external_id === `cc:${sessionId}`);
      assert.equal(saved.title, 'Add a launch checklist', 'no task done, a closing message too short for a title: the first prompt');
      assert.deepEqual(saved.files_changed, ['docs/launch.md']);
      assert.deepEqual(saved.tags, ['claude-code']);
      assert.deepEqual([saved.source, saved.agent, saved.outcome], ['capture', 'claude-code', 'Checklist written.']);
      assert.match(saved.summary, /Checklist written\.[\s\S]*Add a launch checklist/);

      fs.appendFileSync(file, userLine('Now wire the engine') + writeLine(`${repo}/src/engine.ts`) + textLine('Engine wired.'));
      assert.equal((await runHook('SessionEnd', payload, env)).code, 0);
      assert.deepEqual(await drained(spooled), []);
      const again = (await sessionsOf()).filter((x) => x.external_id === `cc:${sessionId}`);
      assert.equal(again.length, 1);
      assert.equal(again[0].id, saved.id);
      assert.deepEqual(again[0].files_changed, ['docs/launch.md', 'src/engine.ts']);
      assert.match(again[0].summary, /Engine wired\./);
    });

    it('a transcript too large to read within SessionEnd is read and sent by the background sender', async () => {
      const project = `big-${dialect}`;
      const { home, env, spooled } = setup({ SHEET_WORKSPACE_PROJECT: project });
      const toolResult = line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(100_000) }] } });
      const file = transcriptFile(home, userLine('A long session') + toolResult.repeat(50) + writeLine(`${repo}/src/late.ts`) + textLine('Finally done.'));
      assert.ok(fs.statSync(file).size > 4 * 1024 * 1024);
      const end = await runHook('SessionEnd', { session_id: `big-${dialect}`, transcript_path: file, cwd: repo, hook_event_name: 'SessionEnd' }, env);
      const slack = await startupSlack();
      assert.equal(end.code, 0);
      assert.ok(end.ms < 1500 + slack, `SessionEnd took ${end.ms} ms (start-up slack ${slack} ms)`);
      assert.deepEqual(await drained(spooled), []);
      let [saved] = await sessionsOf(project);
      assert.deepEqual([saved.title, saved.files_changed], ['A long session', ['src/late.ts']]);

      // Service down at the end: the job waits; a later hook with the service up leaves it to a background sender.
      // (The same URL down, then up: what is kept goes only to the URL and key it was captured for.)
      const service = await outage(s.url);
      const down = { ...env, SHEET_WORKSPACE_URL: service.url };
      fs.appendFileSync(file, writeLine(`${repo}/src/later.ts`));
      await runHook('SessionEnd', { session_id: `big-${dialect}`, transcript_path: file, cwd: repo, hook_event_name: 'SessionEnd' }, down);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(spooled().filter((f) => f.endsWith('.json')).length, 1);
      await service.up();
      try {
        const todo = await runHook(
          'PostToolUse',
          { session_id: 's', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'After the outage', status: 'pending' }] } },
          down,
        );
        assert.ok(todo.ms < 3000 + (await startupSlack()), `PostToolUse took ${todo.ms} ms`);
        assert.deepEqual(await drained(spooled), []);
      } finally {
        service.close();
      }
      [saved] = await sessionsOf(project);
      assert.deepEqual([saved.title, saved.files_changed], ['A long session', ['src/late.ts', 'src/later.ts']]);
      assert.match(saved.summary, /Finally done\./);
    });

    it('SessionStart prints the briefing of this project only, as SessionStart additional context', async () => {
      const { env, home } = setup({ SHEET_WORKSPACE_PROJECT: `brief-${dialect}` });
      const project = `brief-${dialect}`;
      const ses = await s.req('POST', '/v1/sessions', { key, body: { title: 'Earlier', summary: 'Earlier work', project } });
      await s.req('POST', '/v1/sessions/handover', { key, body: { session_id: ses.body.id, next_steps: ['Ship the rocket engine'] } });
      await s.req('POST', '/v1/todos', { key, body: { project, todos: [{ content: 'Paint the fins', status: 'pending' }] } });
      await s.req('POST', '/v1/todos', { key, body: { project: 'someone-else', todos: [{ content: 'Other project task', status: 'pending' }] } });
      const r = await runHook('SessionStart', { session_id: 'x', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, env);
      assert.equal(r.code, 0);
      assert.ok(r.stdout, `no output after ${r.ms} ms: ${fs.existsSync(path.join(home, '.sheet-workspace/hook.log')) ? fs.readFileSync(path.join(home, '.sheet-workspace/hook.log'), 'utf8') : ''}`);
      const out = JSON.parse(r.stdout);
      assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
      const text: string = out.hookSpecificOutput.additionalContext;
      assert.match(text, /Ship the rocket engine/);
      assert.match(text, /Paint the fins/);
      assert.doesNotMatch(text, /Other project task/);
      assert.ok(text.length <= 10_000);
    });

    it('tasks become todos: created, in progress, completed, and found again by a later session', async () => {
      const project = `tasks-${dialect}`;
      const { env } = setup({ SHEET_WORKSPACE_PROJECT: project });
      const base = { session_id: 'sess-a', cwd: repo };
      await runHook('TaskCreated', { ...base, hook_event_name: 'TaskCreated', task_id: '1', task_subject: 'Add launch checklist', task_description: 'd' }, env);
      await runHook(
        'PostToolUse',
        {
          ...base,
          hook_event_name: 'PostToolUse',
          tool_name: 'TaskCreate',
          tool_input: { subject: 'Add launch checklist', description: 'd' },
          tool_response: { task: { id: '1', subject: 'Add launch checklist' } },
        },
        env,
      );
      assert.deepEqual(
        (await todosOf(project)).map((t) => [t.content, t.status]),
        [['Add launch checklist', 'pending']],
      );
      await runHook('PostToolUse', { ...base, hook_event_name: 'PostToolUse', tool_name: 'TaskUpdate', tool_input: { taskId: '1', status: 'in_progress' }, tool_response: { success: true, taskId: '1' } }, env);
      assert.deepEqual(
        (await todosOf(project)).map((t) => t.status),
        ['in_progress'],
      );
      await runHook('TaskCompleted', { ...base, hook_event_name: 'TaskCompleted', task_id: '1', task_subject: 'Add launch checklist' }, env);
      assert.deepEqual(
        (await todosOf(project)).map((t) => t.status),
        ['completed'],
      );
      // A later session plans the same task again: the same todo goes back to pending.
      await runHook(
        'PostToolUse',
        {
          session_id: 'sess-b',
          cwd: repo,
          hook_event_name: 'PostToolUse',
          tool_name: 'TaskCreate',
          tool_input: { subject: 'Add launch checklist' },
          tool_response: { task: { id: '1', subject: 'Add launch checklist' } },
        },
        env,
      );
      await runHook('PostToolUse', { ...base, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'Write docs', status: 'pending', activeForm: 'Writing docs' }] } }, env);
      // A sender still at work when a hook starts (it holds the lock) sends that hook's event right after.
      const expected = [
        ['Add launch checklist', 'pending'],
        ['Write docs', 'pending'],
      ];
      const got = await until(
        async () => (await todosOf(project)).map((t) => [t.content, t.status]).sort(),
        (v) => JSON.stringify(v) === JSON.stringify(expected),
        'both todos',
      );
      assert.deepEqual(got, expected);
    });

    it('service down: every hook exits 0 at once and spools; once it is up, the next hook sends everything', async () => {
      const { home, env, spoolDir, spooled } = setup({ SHEET_WORKSPACE_PROJECT: `down-${dialect}` });
      const service = await outage(s.url); // down, then up at the same URL
      const down = { ...env, SHEET_WORKSPACE_URL: service.url };
      const file = transcriptFile(home, userLine('Work while the service is down') + writeLine(`${repo}/a.ts`));
      const sessionId = `down-${dialect}`;
      const end = await runHook('SessionEnd', { session_id: sessionId, transcript_path: file, cwd: repo, hook_event_name: 'SessionEnd' }, down);
      const task = await runHook(
        'PostToolUse',
        { session_id: sessionId, cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'Offline task', status: 'pending' }] } },
        down,
      );
      const start = await runHook('SessionStart', { session_id: 'next', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, down);
      for (const r of [end, task]) assert.deepEqual([r.code, r.stdout], [0, '']);
      assert.equal(start.code, 0);
      const told = JSON.parse(start.stdout);
      assert.match(told.hookSpecificOutput.additionalContext, /^Sheet Workspace: the service at http:\/\/127\.0\.0\.1:\d+ could not be reached \(connection refused\)/);
      assert.equal(told.systemMessage, told.hookSpecificOutput.additionalContext, 'the user is told too');
      const slack = await startupSlack();
      assert.ok(end.ms < 1500 + slack, `SessionEnd took ${end.ms} ms (start-up slack ${slack} ms)`);
      assert.equal(spooled().length, 2);
      assert.equal(fs.statSync(spoolDir).mode & 0o777, 0o700);
      for (const f of spooled()) assert.equal(fs.statSync(path.join(spoolDir, f)).mode & 0o777, 0o600);
      assert.match(fs.readFileSync(path.join(home, '.sheet-workspace', 'hook.log'), 'utf8'), /ECONNREFUSED/);

      await service.up();
      try {
        const up = await runHook('SessionStart', { session_id: 'next', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, down);
        assert.equal(up.code, 0);
        assert.deepEqual(spooled(), []);
      } finally {
        service.close();
      }
      const saved = (await sessionsOf(`down-${dialect}`)).filter((x) => x.external_id === `cc:${sessionId}`);
      assert.deepEqual(
        saved.map((x) => x.files_changed),
        [['a.ts']],
      );
      assert.deepEqual(
        (await todosOf(`down-${dialect}`)).map((t) => t.content),
        ['Offline task'],
      );
    });

    it('hanging service: hooks give up in time (SessionEnd within 1.5 s) and keep what they could not send', async () => {
      const sockets = new Set<net.Socket>();
      const hang = net.createServer((socket) => sockets.add(socket)); // accepts, never answers
      await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
      try {
        const { home, env, spooled } = setup({ SHEET_WORKSPACE_URL: `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}` });
        const file = transcriptFile(home, userLine('Slow day'));
        const end = await runHook('SessionEnd', { session_id: 'hang-1', transcript_path: file, cwd: repo, hook_event_name: 'SessionEnd' }, env);
        const todo = await runHook(
          'PostToolUse',
          { session_id: 'hang-1', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'Wait', status: 'pending' }] } },
          env,
        );
        const start = await runHook('SessionStart', { session_id: 'hang-2', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, env);
        for (const r of [end, todo]) assert.deepEqual([r.code, r.stdout], [0, '']);
        assert.equal(start.code, 0);
        assert.match(JSON.parse(start.stdout).hookSpecificOutput.additionalContext, /could not be reached \(no answer within 2\.5 s\)/);
        const slack = await startupSlack();
        assert.ok(end.ms < 1500 + slack, `SessionEnd took ${end.ms} ms (start-up slack ${slack} ms)`);
        assert.ok(todo.ms < 3000 + slack && start.ms < 3000 + slack, `PostToolUse ${todo.ms} ms, SessionStart ${start.ms} ms (slack ${slack} ms)`);
        assert.ok(spooled().length >= 1, 'the requests wait in the spool (or with the background sender)');
      } finally {
        for (const socket of sockets) socket.destroy();
        hang.close();
      }
    });

    it('secrets and <private> text never reach the service', async () => {
      const project = `secret-${dialect}`;
      const { home, env, spooled } = setup({ SHEET_WORKSPACE_PROJECT: project });
      const secrets = ['sk_live_51HqLyjWDarjtT1zdp7dcXYZ', 'AKIAIOSFODNN7EXAMPLE', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'xoxb-1234-5678-abcdef', 'hunter2', 'my home address'];
      const file = transcriptFile(
        home,
        userLine('Deploy with sk_live_51HqLyjWDarjtT1zdp7dcXYZ and password=hunter2 <private>my home address</private>') + textLine('Used AKIAIOSFODNN7EXAMPLE and xoxb-1234-5678-abcdef'),
      );
      await runHook('SessionEnd', { session_id: `secret-${dialect}`, transcript_path: file, cwd: repo, hook_event_name: 'SessionEnd' }, env);
      await drained(spooled);
      await runHook(
        'PostToolUse',
        { session_id: 's', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'Rotate ghp_16C7e42F292c6912E7710c838347Ae178B4a soon', status: 'pending' }] } },
        env,
      );
      const stored = JSON.stringify([await sessionsOf(project), await todosOf(project)]);
      assert.match(stored, /Deploy with \[REDACTED\] and password=\[REDACTED\] \[PRIVATE\]/);
      assert.match(stored, /Rotate \[REDACTED\] soon/);
      for (const secret of secrets) assert.equal(stored.includes(secret), false, secret);
    });

    it('capture off: nothing is sent or spooled, the briefing is still read; no key: nothing at all', async () => {
      const project = `off-${dialect}`;
      const { home, env, spooled } = setup({ SHEET_WORKSPACE_PROJECT: project, SHEET_WORKSPACE_CAPTURE: '0' });
      await s.req('POST', '/v1/todos', { key, body: { project, todos: [{ content: 'Visible in the briefing', status: 'pending' }] } });
      const file = transcriptFile(home, userLine('Do not keep this'));
      const end = await runHook('SessionEnd', { session_id: `off-${dialect}`, transcript_path: file, cwd: repo, hook_event_name: 'SessionEnd' }, env);
      const todo = await runHook('PostToolUse', { session_id: 's', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'Not sent', status: 'pending' }] } }, env);
      const start = await runHook('SessionStart', { session_id: 's', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, env);
      assert.deepEqual([end.code, end.stdout, todo.code, todo.stdout, start.code], [0, '', 0, '', 0]);
      assert.match(JSON.parse(start.stdout).hookSpecificOutput.additionalContext, /Visible in the briefing/);
      assert.deepEqual(await sessionsOf(project), []);
      assert.deepEqual(
        (await todosOf(project)).map((t) => t.content),
        ['Visible in the briefing'],
      );
      assert.deepEqual(spooled(), []);

      const noKey = setup({ SHEET_WORKSPACE_API_KEY: '' });
      const r = await runHook('SessionStart', { session_id: 's', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, noKey.env);
      assert.deepEqual([r.code, r.stdout], [0, '']);
      assert.match(fs.readFileSync(path.join(noKey.home, '.sheet-workspace', 'hook.log'), 'utf8'), /no API key/);
    });

    it('garbage on stdin or an unknown event still exits 0 with nothing on stdout', async () => {
      const { env } = setup();
      for (const [event, input] of [
        ['SessionEnd', 'not json'],
        ['Nonsense', '{}'],
        ['PostToolUse', '[]'],
      ]) {
        const child = spawn(process.execPath, [HOOK_SCRIPT, event], { env: { PATH: process.env.PATH ?? '', ...env } });
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.stdin.on('error', () => {});
        child.stdin.end(input);
        const code = await new Promise((r) => child.on('close', r));
        assert.deepEqual([code, out], [0, ''], event);
      }
    });
  });
}
