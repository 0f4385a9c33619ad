// SessionStart as Claude Code runs it (hooks/hooks.json: `sh session-start.sh` in the session's folder) against the
// real service: the briefing read with curl and printed as hook output, the project found by hooks/project.awk exactly
// as scripts/project.mjs finds it, and node doing the same work where curl is missing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { dialects } from '../helpers.js';
import { closedPort, runShell, until } from '../plugin-helpers.js';
import { useServer } from '../server-fixture.js';
import { HOOK_SCRIPT, createSpool, detectProject, ownerOf } from '../plugin-modules.js';

const HOOKS_DIR = path.dirname(HOOK_SCRIPT);
const SESSION_START = path.join(HOOKS_DIR, 'session-start.sh');
const PROJECT_AWK = path.join(HOOKS_DIR, 'project.awk');

const sessionStart = (cwd: string, env: Record<string, string>, command = `sh "${SESSION_START}"`) => runShell(command, { session_id: 's', cwd, hook_event_name: 'SessionStart', source: 'startup' }, env, cwd);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-session-start-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function folder(...parts: string[]) {
  const dir = path.join(tmp, ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
function gitRepo(name: string, config: string | null, head = true) {
  const root = folder('repos', name);
  fs.mkdirSync(path.join(root, '.git'), { recursive: true });
  if (config !== null) fs.writeFileSync(path.join(root, '.git', 'config'), config);
  if (head) fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return root;
}
const origin = (url: string) =>
  `[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://example.com/other/upstream-name.git\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;

describe('hooks/project.awk finds the project scripts/project.mjs finds', () => {
  before(() => {
    const main = gitRepo('main-checkout', origin('git@github.com:acme/shared-core.git'));
    fs.mkdirSync(path.join(main, '.git', 'worktrees', 'feature'), { recursive: true });
    fs.writeFileSync(path.join(main, '.git', 'worktrees', 'feature', 'commondir'), '../..\n');
    const worktree = folder('repos', 'feature-tree');
    fs.writeFileSync(path.join(worktree, '.git'), `gitdir: ${path.join(main, '.git', 'worktrees', 'feature')}\n`);
    const sub = folder('repos', 'super', 'libs', 'vendored');
    fs.mkdirSync(path.join(tmp, 'repos', 'super', '.git', 'modules', 'vendored'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'repos', 'super', '.git', 'modules', 'vendored', 'config'), origin('https://github.com/acme/vendored-lib'));
    fs.writeFileSync(path.join(sub, '.git'), 'gitdir: ../../.git/modules/vendored\n');
  });

  const cases: [string, () => string, string?][] = [
    ['https origin, from a nested folder', () => folder(path.relative(tmp, gitRepo('checkout', origin('https://github.com/acme/rocket-app.git'))), 'src', 'deep')],
    ['ssh origin', () => gitRepo('ssh-checkout', origin('git@github.com:acme/ssh-app.GIT'))],
    ['quoted url, upper-case section, trailing slashes', () => gitRepo('quoted', '[Remote "origin"]\n  URL = "file:///srv/quoted-app//"\n')],
    ['query and fragment dropped', () => gitRepo('query', origin('https://host/acme/query-app.git?ref=x#frag'))],
    ['no origin: the top-level folder', () => gitRepo('no-origin', '[remote "upstream"]\n\turl = https://x/acme/not-this.git\n')],
    ['.git with HEAD only: the top-level folder', () => gitRepo('head-only', null)],
    ["a worktree shares the main checkout's origin", () => path.join(tmp, 'repos', 'feature-tree')],
    ['a submodule has its own config', () => path.join(tmp, 'repos', 'super', 'libs', 'vendored')],
    ["no repository: the folder's name", () => folder('plain', 'my notes #1 & co')],
    ['a folder named in Japanese', () => folder('plain', 'プロジェクト')],
    ['SHEET_WORKSPACE_PROJECT wins, trimmed', () => folder('plain', 'ignored'), '  launch plan ✓  '],
  ];
  for (const [label, dir, override] of cases) {
    it(label, () => {
      const cwd = dir();
      const env = { PATH: process.env.PATH ?? '', PWD: cwd, ...(override ? { SHEET_WORKSPACE_PROJECT: override } : {}) };
      const r = spawnSync('awk', ['-f', PROJECT_AWK], { cwd, env: { ...env, LC_ALL: 'C' }, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^[A-Za-z0-9_.~%-]*\n$/, 'percent-encoded, one line');
      assert.equal(decodeURIComponent(r.stdout.trim()), detectProject(cwd, (override ?? '').trim()));
    });
  }
});

for (const dialect of dialects()) {
  describe(`plugin session-start.sh against the service [${dialect}]`, () => {
    let key: string;
    let repo: string;
    let n = 0;
    // The tests poll the service while detached senders deliver; the plan's request limit is tested elsewhere.
    const { s } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
    const project = `brief-${dialect}`;
    before(async () => {
      key = (await s.user('pro')).key;
      repo = gitRepo(`brief-${dialect}`, origin(`git@github.com:acme/${project}.git`));
      const saved = await s.req('POST', '/v1/sessions', { key, body: { title: 'Engine work', summary: 'Tuned the engine.', project } });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const h = await s.req('POST', '/v1/sessions/handover', { key, body: { session_id: saved.body.id, next_steps: ['Wire the fuel pump'], notes: 'Watch the gauge' } });
      assert.equal(h.status, 200, JSON.stringify(h.body));
      assert.equal((await s.req('POST', '/v1/todos', { key, body: { project, todos: [{ content: 'Paint the fins', status: 'pending' }] } })).status, 200);
      assert.equal((await s.req('POST', '/v1/todos', { key, body: { project: 'elsewhere', todos: [{ content: 'Other project task', status: 'pending' }] } })).status, 200);
    });
    const envFor = (extra: Record<string, string> = {}) => {
      const home = folder(`home-${dialect}-${n++}`);
      return { home, env: { HOME: home, SHEET_WORKSPACE_URL: `${s.url}/`, SHEET_WORKSPACE_API_KEY: key, ...extra } };
    };

    it("prints the briefing of the folder's project as hook output, the same as the node hook prints", async () => {
      const { env } = envFor();
      const r = await sessionStart(path.join(repo), env);
      assert.equal(r.code, 0);
      const out = JSON.parse(r.stdout);
      assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
      const text: string = out.hookSpecificOutput.additionalContext;
      assert.match(text, new RegExp(`briefing for project "${project}"`, 'i'));
      assert.match(text, /Wire the fuel pump/);
      assert.match(text, /Paint the fins/);
      assert.doesNotMatch(text, /Other project task/);
      const viaNode = await sessionStart(repo, env, `node "${HOOK_SCRIPT}" SessionStart`);
      assert.deepEqual(JSON.parse(viaNode.stdout), out);
    });

    it('without curl on PATH, node does the same work', async () => {
      const bin = folder(`bin-${dialect}`);
      for (const tool of ['sh', 'awk', 'node', 'date', 'head', 'mkdir', 'setsid']) {
        const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found) fs.symlinkSync(found, path.join(bin, tool));
      }
      const { env } = envFor({ PATH: bin });
      const r = await sessionStart(repo, env);
      assert.equal(r.code, 0);
      assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, /Wire the fuel pump/);
    });

    it('service down, a wrong key or a hanging service: exits 0 within 3 s, says so in one line, to the user once, logs why', async () => {
      const sockets = new Set<net.Socket>();
      const hang = net.createServer((socket) => sockets.add(socket));
      await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
      const closed = await closedPort();
      try {
        for (const [label, extra, told, logged] of [
          ['down', { SHEET_WORKSPACE_URL: `http://127.0.0.1:${closed}` }, /could not be reached \(connection refused\)[^\n]*start the service, or correct SHEET_WORKSPACE_URL/, /curl exit 7/],
          ['wrong key', { SHEET_WORKSPACE_API_KEY: 'sk_live_wrong' }, /refused the API key \(401\)[^\n]*SHEET_WORKSPACE_API_KEY/, /briefing not read: 401/],
          ['hanging', { SHEET_WORKSPACE_URL: `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}` }, /could not be reached \(no answer within 2\.5 s\)/, /curl exit 28/],
        ] as const) {
          const { home, env } = envFor(extra);
          const r = await sessionStart(repo, env);
          assert.equal(r.code, 0, label);
          assert.ok(r.ms < 3000, `${label}: ${r.ms} ms`);
          const out = JSON.parse(r.stdout);
          const context: string = out.hookSpecificOutput.additionalContext;
          assert.match(context, told, label);
          assert.equal(context.split('\n').length, 1, 'one line');
          assert.match(context, /waits on this machine and is sent/, 'says that capture is sent later');
          assert.equal(out.systemMessage, context, `${label}: the user is told`);
          assert.ok(!r.stdout.includes('sk_live_wrong'), 'the key is never shown');
          const logFile = path.join(home, '.sheet-workspace', 'hook.log');
          assert.equal(fs.statSync(logFile).mode & 0o777, 0o600);
          const log = fs.readFileSync(logFile, 'utf8');
          assert.match(log, logged, label);
          assert.doesNotMatch(log, /sk_live_wrong/, 'the key is never logged');
          if (label === 'hanging') continue;
          // The next session: told in the context again, but the user not again while the same failure lasts.
          const again = JSON.parse((await sessionStart(repo, env)).stdout);
          assert.equal(again.hookSpecificOutput.additionalContext, context);
          assert.equal(again.systemMessage, undefined, `${label}: the user is told once`);
          const viaNode = JSON.parse((await sessionStart(repo, env, `node "${HOOK_SCRIPT}" SessionStart`)).stdout);
          assert.equal(viaNode.systemMessage, undefined, `${label}: node keeps the same notice file`);
          assert.match(viaNode.hookSpecificOutput.additionalContext, told);
          // Fixed: the briefing comes back and the notice is forgotten, so the next failure is told again.
          const fixed = JSON.parse((await sessionStart(repo, { ...env, SHEET_WORKSPACE_URL: s.url, SHEET_WORKSPACE_API_KEY: key })).stdout);
          assert.doesNotMatch(fixed.hookSpecificOutput.additionalContext, /Sheet Workspace: the service/);
          assert.equal(fixed.systemMessage, undefined);
          assert.ok(JSON.parse((await sessionStart(repo, env)).stdout).systemMessage, `${label}: told again after a recovery`);
        }
      } finally {
        for (const socket of sockets) socket.destroy();
        hang.close();
      }
    });

    it('a session is briefed once: a resume of it gets nothing more, a compaction a short briefing', async () => {
      const { home, env } = envFor();
      const run = (source: string, session_id = 'once-1', command = `sh "${SESSION_START}"`) => runShell(command, { session_id, cwd: repo, hook_event_name: 'SessionStart', source }, env, repo);
      const first = await run('startup');
      assert.match(JSON.parse(first.stdout).hookSpecificOutput.additionalContext, /Wire the fuel pump/);
      assert.ok(fs.existsSync(path.join(home, '.sheet-workspace', 'briefed', 'once-1')));
      assert.deepEqual([(await run('resume')).stdout, (await run('resume', 'once-1', `node "${HOOK_SCRIPT}" SessionStart`)).stdout], ['', '']);
      const other = await run('resume', 'never-briefed');
      assert.match(JSON.parse(other.stdout).hookSpecificOutput.additionalContext, /Wire the fuel pump/, 'a session never briefed is briefed on its resume');
      const compact = JSON.parse((await run('compact')).stdout).hookSpecificOutput.additionalContext as string;
      assert.ok(compact.length <= 1500, `after a compaction: ${compact.length} characters`);
      assert.match(compact, /briefing for project/i);
    });

    it('the briefing settings reach the service: max_chars and others=exclude', async () => {
      const seen: string[] = [];
      const probe = (await import('node:http')).createServer((req, res) => {
        seen.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ok"}}');
      });
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      try {
        const url = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}`;
        for (const [extra, query] of [
          [{}, 'max_chars=6000'],
          [{ CLAUDE_PLUGIN_OPTION_BRIEFING_MAX_CHARS: '2500', CLAUDE_PLUGIN_OPTION_BRIEFING_OTHERS: 'exclude' }, 'max_chars=2500&others=exclude'],
          [{ CLAUDE_PLUGIN_OPTION_BRIEFING_MAX_CHARS: '99999', SHEET_WORKSPACE_BRIEFING_MAX_CHARS: '12000' }, 'max_chars=12000'],
          [{ CLAUDE_PLUGIN_OPTION_BRIEFING_MAX_CHARS: '7000.0', CLAUDE_PLUGIN_OPTION_BRIEFING_OTHERS: 'include' }, 'max_chars=7000'],
          [{ CLAUDE_PLUGIN_OPTION_BRIEFING_MAX_CHARS: '12' }, 'max_chars=6000'],
        ] as const) {
          seen.length = 0;
          const { env } = envFor({ SHEET_WORKSPACE_URL: url, ...extra });
          await sessionStart(repo, env);
          await sessionStart(repo, env, `node "${HOOK_SCRIPT}" SessionStart`);
          assert.deepEqual(seen, [`/v1/briefing/claude-code?project=${project}&${query}`, `/v1/briefing?project=${project}&${query}`]);
        }
      } finally {
        probe.close();
      }
    });

    it('requests left in the spool are sent by the sender it starts', async () => {
      const { home, env } = envFor();
      const spool = createSpool(path.join(home, '.sheet-workspace', 'spool'));
      spool.add({ method: 'POST', path: '/v1/todos', body: { project, todos: [{ content: 'Left from an outage', status: 'pending' }] } }, undefined, ownerOf({ url: s.url, apiKey: key }));
      const r = await sessionStart(repo, env);
      assert.equal(r.code, 0);
      assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, /briefing for project/i);
      // Every file counts, the sender's claim too: an entry being sent has left list() before its request is answered.
      await until(
        () => fs.readdirSync(spool.dir),
        (left) => left.length === 0,
        'the spool to empty',
      );
      const todos = (await s.req('GET', `/v1/todos?project=${project}`, { key })).body.todos as { content: string }[];
      assert.ok(todos.some((t) => t.content === 'Left from an outage'));
    });

    it('a URL that is not http or https is never read by curl: node refuses it, nothing is printed', async () => {
      const secret = path.join(tmp, `secret-${dialect}.txt`);
      fs.writeFileSync(secret, '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"LOCAL FILE"}}');
      const { env } = envFor({ SHEET_WORKSPACE_URL: `file://${secret}#` });
      const r = await sessionStart(repo, env);
      assert.equal(r.code, 0);
      assert.doesNotMatch(r.stdout, /LOCAL FILE/);
      assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, /could not be reached \(not an http or https URL\)/);
    });

    it('a key or URL the shell cannot quote safely goes to node, which refuses it the same way', async () => {
      const { home, env } = envFor({ SHEET_WORKSPACE_API_KEY: 'sk_"quoted' });
      const r = await sessionStart(repo, env);
      assert.equal(r.code, 0);
      assert.match(JSON.parse(r.stdout).hookSpecificOutput.additionalContext, /refused the API key \(401\)/);
      assert.match(fs.readFileSync(path.join(home, '.sheet-workspace', 'hook.log'), 'utf8'), /briefing for ".*" not read: 401/);
    });
  });
}
