// The capture hooks as Claude Code runs them (hooks/hooks.json: `sh capture.sh <event>`, the event on stdin) against
// the real service: the shell keeps the event in the inbox and returns, a detached sender delivers it, in order.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { dialects } from '../helpers.js';
import { outage, runShell, until, type HookRun as Run } from '../plugin-helpers.js';
import { useServer } from '../server-fixture.js';
import { CAPTURE_SCRIPT, HOOK_SCRIPT, INBOX_LIMIT, LOCK_NAME, createInbox, ownerOf } from '../plugin-modules.js';

const capture = (event: string, payload: unknown, env: Record<string, string>) => runShell(`sh "${CAPTURE_SCRIPT}" ${event}`, payload, env);
const sessionStart = (payload: unknown, env: Record<string, string>) => runShell(`node "${HOOK_SCRIPT}" SessionStart`, payload, env);

/** A pid no process has: a sender that died. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const mode = (file: string) => fs.statSync(file).mode & 0o777;

for (const dialect of dialects()) {
  describe(`plugin capture hooks through capture.sh [${dialect}]`, () => {
    let key: string;
    let tmp: string;
    let repo: string;
    let n = 0;
    // The tests poll the service while detached senders deliver; the plan's request limit is tested elsewhere.
    const { s } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
    before(async () => {
      key = (await s.user('pro')).key;
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-capture-'));
      repo = path.join(tmp, 'checkout');
      fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
      fs.writeFileSync(path.join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/rocket-app.git\n');
    });
    after(() => fs.rmSync(tmp, { recursive: true, force: true }));

    function setup(project: string, extra: Record<string, string> = {}) {
      const home = path.join(tmp, `home${n++}`);
      fs.mkdirSync(home);
      const env: Record<string, string> = { HOME: home, SHEET_WORKSPACE_URL: s.url, SHEET_WORKSPACE_API_KEY: key, SHEET_WORKSPACE_PROJECT: `${project}-${dialect}`, ...extra };
      const state = path.join(home, '.sheet-workspace');
      const list = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
      return {
        home,
        env,
        project: `${project}-${dialect}`,
        state,
        inbox: path.join(state, 'inbox'),
        spool: path.join(state, 'spool'),
        waiting: () => [...list(path.join(state, 'inbox')), ...list(path.join(state, 'spool'))],
      };
    }
    const todosOf = async (project: string) => ((await s.req('GET', `/v1/todos?project=${project}`, { key })).body.todos as any[]).map((t) => `${t.content}: ${t.status}`).sort();
    const sessionsOf = async (project: string) => (await s.req('GET', `/v1/sessions?project=${project}`, { key })).body.sessions as any[];
    const task = (sessionId: string, id: number, done = false) => ({
      session_id: sessionId,
      cwd: repo,
      hook_event_name: done ? 'TaskCompleted' : 'TaskCreated',
      task_id: String(id),
      task_subject: `Task ${String(id).padStart(2, '0')}`,
    });

    it('each hook returns without waiting for the sender; the sender delivers the tasks in the order they happened', async () => {
      const t = setup('order');
      const runs: Run[] = [];
      // One session's hooks come one after the other, each completion right behind its creation.
      for (let i = 1; i <= 12; i++) {
        runs.push(await capture('TaskCreated', task('sess-1', i), t.env));
        if (i % 2 === 0) runs.push(await capture('TaskCompleted', task('sess-1', i, true), t.env));
      }
      for (const r of runs) assert.deepEqual([r.code, r.stdout], [0, '']);
      const expected = Array.from({ length: 12 }, (_, i) => `Task ${String(i + 1).padStart(2, '0')}: ${(i + 1) % 2 === 0 ? 'completed' : 'pending'}`);
      assert.deepEqual(
        await until(
          () => todosOf(t.project),
          (v) => v.join() === expected.join(),
          'the twelve tasks',
        ),
        expected,
      );
      await until(t.waiting, (w) => w.length === 0, 'the inbox and the spool to empty');
      assert.equal(fs.existsSync(path.join(t.inbox, LOCK_NAME)), false, 'the sender let go of its lock');
      assert.equal(mode(t.inbox), 0o700);
    });

    it('three sessions firing at once: every event is delivered once, none lost, none doubled', async () => {
      const t = setup('burst');
      const fired = await Promise.all(
        ['a', 'b', 'c'].flatMap((session) =>
          Array.from({ length: 15 }, (_, i) =>
            capture('PostToolUse', { session_id: session, cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: `${session}-${i}`, status: 'pending' }] } }, t.env),
          ),
        ),
      );
      assert.ok(fired.every((r) => r.code === 0));
      const expected = ['a', 'b', 'c'].flatMap((session) => Array.from({ length: 15 }, (_, i) => `${session}-${i}: pending`)).sort();
      const todos = await until(
        () => todosOf(t.project),
        (v) => v.length >= expected.length,
        '45 todos',
      );
      await until(t.waiting, (w) => w.length === 0, 'the inbox and the spool to empty');
      assert.deepEqual(await todosOf(t.project), expected);
      assert.equal(todos.length, 45);
    });

    it('service down: the events wait owner-only in the inbox, and the next SessionStart sends them', async () => {
      const t = setup('down');
      // The same URL throughout (what is kept goes only to the URL and key it was captured for): down, then up again.
      const service = await outage(s.url);
      const down = { ...t.env, SHEET_WORKSPACE_URL: service.url };
      const transcript = path.join(t.home, 'transcript.jsonl');
      const tool = { type: 'tool_use', id: 't', name: 'Edit', input: { file_path: `${repo}/src/offline.ts`, old_string: 'a', new_string: 'b' } };
      fs.writeFileSync(transcript, line({ type: 'user', message: { role: 'user', content: 'Work offline' } }) + line({ type: 'assistant', message: { content: [tool] } }));
      const sessionId = `down-${dialect}`;
      assert.equal((await capture('TaskCreated', task(sessionId, 1), down)).code, 0);
      assert.equal((await capture('SessionEnd', { session_id: sessionId, transcript_path: transcript, cwd: repo, hook_event_name: 'SessionEnd', reason: 'other' }, down)).code, 0);
      // The senders find the service down and leave both events where they are, for one that finds it up.
      await new Promise((r) => setTimeout(r, 1500));
      const kept = createInbox(t.inbox).list();
      assert.equal(kept.length, 2);
      assert.equal(mode(t.inbox), 0o700);
      for (const f of kept) assert.equal(mode(path.join(t.inbox, f)), 0o600);
      assert.equal(fs.existsSync(path.join(t.inbox, LOCK_NAME)), false, 'a sender that found the service down never takes the lock');

      await service.up();
      try {
        const up = await sessionStart({ session_id: 'next', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }, down);
        assert.equal(up.code, 0);
        await until(t.waiting, (w) => w.length === 0, 'the spool to empty');
      } finally {
        service.close();
      }
      assert.deepEqual(await todosOf(t.project), ['Task 01: pending']);
      const [saved] = (await sessionsOf(t.project)).filter((x) => x.external_id === `cc:${sessionId}`);
      assert.deepEqual(saved.files_changed, ['src/offline.ts']);
    });

    it('a hanging service holds no hook: the shell returns at once while the detached sender waits on the service', async () => {
      const sockets = new Set<net.Socket>();
      const hang = net.createServer((socket) => sockets.add(socket)); // accepts, never answers
      await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
      try {
        const t = setup('hang', { SHEET_WORKSPACE_URL: `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}` });
        const runs = [await capture('TaskCreated', task('hang', 1), t.env), await capture('SessionEnd', { session_id: 'hang', transcript_path: '/nonexistent', cwd: repo }, t.env)];
        for (const r of runs) assert.deepEqual([r.code, r.stdout], [0, '']);
        assert.ok(
          runs.every((r) => r.ms < 1000),
          `the hooks took ${runs.map((r) => Math.round(r.ms)).join(' and ')} ms`,
        );
        // The sender outlives the hook: it is the one connected to the service.
        await until(
          () => sockets.size,
          (size) => size >= 1,
          'the sender to connect',
        );
      } finally {
        for (const socket of sockets) socket.destroy();
        hang.close();
      }
    });

    it('a live sender is left to take new events; the lock of a dead one is taken over', async () => {
      const t = setup('lock');
      fs.mkdirSync(t.inbox, { recursive: true, mode: 0o700 });
      const lock = path.join(t.inbox, LOCK_NAME);
      fs.writeFileSync(lock, `${process.pid}\n`); // this test process plays a live sender
      assert.equal((await capture('TaskCreated', task('lock', 1), t.env)).code, 0);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(createInbox(t.inbox).list().length, 1, 'no second sender was started: the event waits for the live one');
      assert.deepEqual(await todosOf(t.project), []);

      fs.writeFileSync(lock, `${deadPid()}\n`); // that sender died
      assert.equal((await capture('TaskCompleted', task('lock', 1, true), t.env)).code, 0);
      // The todos once nothing waits, read after that check: read before it, a request sent in between is missed.
      const whenSent = async () => (t.waiting().length === 0 ? todosOf(t.project) : undefined);
      assert.deepEqual(await until(whenSent, (v) => v !== undefined && v.length > 0, 'both events sent in order'), ['Task 01: completed']);

      // A lock two minutes old whose pid runs again (a dead sender's, the pid reused after a reboot) is taken over too.
      fs.writeFileSync(lock, `${process.pid}\n`);
      const old = new Date(Date.now() - 120_000);
      fs.utimesSync(lock, old, old);
      assert.equal((await capture('TaskCreated', task('lock', 2), t.env)).code, 0);
      assert.deepEqual(await until(whenSent, (v) => v?.length === 2, 'the third event sent'), ['Task 01: completed', 'Task 02: pending']);
    });

    it('the project and the capture switch are those of the hook that kept the event, not of the sender', async () => {
      const t = setup('first');
      fs.mkdirSync(t.inbox, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(t.inbox, LOCK_NAME), `${process.pid}\n`); // hold the sender back while the events are kept
      const todo = (content: string) => ({ session_id: 'p', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content, status: 'pending' }] } });
      await capture('PostToolUse', todo('Kept for the first project'), t.env);
      // Written as a hook whose project turned capture off would (capture.sh itself keeps nothing then).
      createInbox(t.inbox).add('PostToolUse', { project: t.project, capture: 'off', owner: ownerOf({ url: s.url, apiKey: key }) }, JSON.stringify(todo('Never sent')));
      fs.rmSync(path.join(t.inbox, LOCK_NAME));
      const second = `second-${dialect}`;
      await capture('PostToolUse', todo('Kept for the second project'), { ...t.env, SHEET_WORKSPACE_PROJECT: second });
      await until(t.waiting, (w) => w.length === 0, 'the inbox and the spool to empty');
      assert.deepEqual(await todosOf(t.project), ['Kept for the first project: pending']);
      assert.deepEqual(await todosOf(second), ['Kept for the second project: pending']);
    });

    it('capture off or no API key: the hook keeps nothing and starts nothing', async () => {
      for (const [label, extra] of [
        ['SHEET_WORKSPACE_CAPTURE=0', { SHEET_WORKSPACE_CAPTURE: '0' }],
        ['SHEET_WORKSPACE_CAPTURE=Off', { SHEET_WORKSPACE_CAPTURE: 'Off' }],
        ['no key', { SHEET_WORKSPACE_API_KEY: '' }],
      ] as const) {
        const t = setup('off', extra);
        const r = await capture('TaskCreated', task('off', 1), t.env);
        assert.deepEqual([r.code, r.stdout], [0, ''], label);
        assert.equal(fs.existsSync(t.state), false, `${label}: nothing written`);
      }
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(await todosOf(`off-${dialect}`), []);
    });

    it('the inbox is bounded: with the limit waiting, a new event is not kept and the log says so', async () => {
      const t = setup('full');
      fs.mkdirSync(t.inbox, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(t.inbox, LOCK_NAME), `${process.pid}\n`);
      for (let i = 0; i < INBOX_LIMIT; i++) fs.writeFileSync(path.join(t.inbox, `${String(i).padStart(19, '0')}-1.json`), 'PostToolUse\n\n\n{}');
      assert.equal((await capture('TaskCreated', task('full', 1), t.env)).code, 0);
      assert.equal(createInbox(t.inbox).list().length, INBOX_LIMIT);
      assert.match(fs.readFileSync(path.join(t.state, 'hook.log'), 'utf8'), /inbox full \(1000 events waiting\), event not kept/);
    });
  });
}

describe('plugin inbox file', () => {
  it('reads what capture.sh writes: header lines, then the event JSON; a file that is not an event is removed', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-inbox-'));
    try {
      const env = { HOME: home, SHEET_WORKSPACE_API_KEY: 'sk_test', SHEET_WORKSPACE_URL: 'http://127.0.0.1:9', SHEET_WORKSPACE_PROJECT: 'multi\nline' };
      const dir = path.join(home, '.sheet-workspace', 'inbox');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, LOCK_NAME), `${process.pid}\n`); // no sender: the file stays to be read
      const payload = { session_id: 's', cwd: '/x', text: 'line one\nline two ✓' };
      assert.equal((await capture('TaskCreated', payload, env)).code, 0);
      const inbox = createInbox(dir);
      const [name] = inbox.list();
      assert.match(name, /^\d{19}-\d+\.json$/);
      assert.equal(mode(path.join(dir, name)), 0o600);
      const owner = ownerOf({ url: 'http://127.0.0.1:9', apiKey: 'sk_test' });
      assert.deepEqual(inbox.read(name), { event: 'TaskCreated', project: 'multi', capture: '', owner, payload });
      assert.equal(inbox.add('TaskCompleted', { project: 'p', capture: '1', owner }, JSON.stringify(payload)), true);
      const names = inbox.list();
      assert.equal(names[0], name, 'oldest first');
      assert.deepEqual(inbox.read(names[1]), { event: 'TaskCompleted', project: 'p', capture: '1', owner, payload });
      fs.writeFileSync(path.join(dir, '0000000000000000001-1.json'), 'TaskCreated\n\n\n{"truncated');
      assert.equal(inbox.read('0000000000000000001-1.json'), null);
      assert.equal(fs.existsSync(path.join(dir, '0000000000000000001-1.json')), false);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('without node on PATH the event is kept and the log says why nothing is sent; a cut event is dropped and logged', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-inbox-'));
    try {
      const bin = path.join(home, 'bin');
      fs.mkdirSync(bin);
      for (const tool of ['sh', 'date', 'head', 'mv', 'mkdir', 'rm', 'setsid', 'sha256sum', 'find']) {
        const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found) fs.symlinkSync(found, path.join(bin, tool));
      }
      const env = { HOME: home, PATH: bin, SHEET_WORKSPACE_API_KEY: 'sk_test', SHEET_WORKSPACE_URL: 'http://127.0.0.1:9' };
      assert.equal((await capture('TaskCreated', { session_id: 's' }, env)).code, 0);
      const state = path.join(home, '.sheet-workspace');
      assert.equal(createInbox(path.join(state, 'inbox')).list().length, 1);
      assert.match(fs.readFileSync(path.join(state, 'hook.log'), 'utf8'), /no node on PATH: what waits in .*inbox and .*spool is not sent/);

      fs.writeFileSync(path.join(state, 'inbox', '0000000000000000001-1.json'), 'TaskCreated\n\n\n{"cut at 1 M');
      // The node SessionStart hook moves the inbox under the lock before it sends (the service is down here).
      const sender = spawnSync(process.execPath, [HOOK_SCRIPT, 'SessionStart'], { input: '{}', env: { ...env, PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
      assert.equal(sender.status, 0);
      assert.deepEqual(createInbox(path.join(state, 'inbox')).list(), [], 'both taken from the inbox: the event (nothing to send in it), the cut one dropped');
      assert.match(fs.readFileSync(path.join(state, 'hook.log'), 'utf8'), /inbox: dropped 0000000000000000001-1\.json, not an event/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('the sender lock: taken once, never read empty, a dead or hung holder taken over, a live one left alone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-lock-'));
    try {
      const file = path.join(dir, LOCK_NAME);
      const a = createInbox(dir).lock();
      const b = createInbox(dir).lock();
      assert.equal(a.take(), true);
      assert.equal(fs.readFileSync(file, 'utf8'), `${process.pid}\n`);
      assert.equal(mode(file), 0o600);
      fs.writeFileSync(file, `${deadPid()}\n`);
      assert.equal(b.take(), true, 'a dead holder is taken over');
      assert.equal(fs.readFileSync(file, 'utf8'), `${process.pid}\n`);
      b.release();
      assert.equal(fs.existsSync(file), false);
      fs.writeFileSync(file, '');
      assert.equal(createInbox(dir).lock().take(), false, 'a lock being written (empty, fresh) is held');
      const old = new Date(Date.now() - 120_000);
      fs.utimesSync(file, old, old);
      assert.equal(createInbox(dir).lock().take(), true, "an empty lock a minute old is a dead writer's");
      assert.deepEqual(fs.readdirSync(dir), [LOCK_NAME], 'no temp or set-aside file left');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
