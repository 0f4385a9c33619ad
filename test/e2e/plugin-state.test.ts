// Finding: the sender read and sent from any state folder, whoever owned it. A state folder (or its inbox or spool)
// that is a symbolic link, not this user's, or writable by group or others is now refused: nothing in it is read or
// sent, capture keeps nothing there, and the reason is said once per run (on stderr, and to the user at SessionStart).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { runShell } from '../plugin-helpers.js';
import { CAPTURE_SCRIPT, HOOK_SCRIPT, createSpool, ownerOf, stateRefusal } from '../plugin-modules.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-state-'));
let n = 0;
const SESSION_START_SCRIPT = new URL('../../plugins/claude-code/hooks/session-start.sh', import.meta.url).pathname;

/** A fresh home whose state folder holds one request of this key's waiting in the spool. */
function home(url: string, key: string) {
  const dir = path.join(tmp, `home${n++}`);
  const state = path.join(dir, '.sheet-workspace');
  const cfg = { stateDir: state, inboxDir: path.join(state, 'inbox'), spoolDir: path.join(state, 'spool') };
  fs.mkdirSync(dir, { mode: 0o700 });
  const spool = createSpool(cfg.spoolDir);
  spool.add({ method: 'POST', path: '/v1/todos', body: { project: 'p', todos: [{ content: 'planted', status: 'pending' }] } }, undefined, ownerOf({ url, apiKey: key }));
  return { dir, state, cfg, spool, env: { HOME: dir, SHEET_WORKSPACE_URL: url, SHEET_WORKSPACE_API_KEY: key } };
}

/** stderr too, which runShell drops. */
function run(args: string[], env: Record<string, string>, input = '{}') {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(input);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((r) => child.on('close', (code) => r({ code, stdout, stderr })));
}

describe("plugin state folder: refused unless it is this user's own", () => {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const listening = new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = () => `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  after(() => {
    server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("stateRefusal: a folder of this user's that no one else can write to passes; each other kind is refused with its reason", () => {
    const h = home('http://x', 'k');
    assert.equal(stateRefusal(h.cfg), null);
    fs.chmodSync(h.cfg.spoolDir, 0o755);
    assert.equal(stateRefusal(h.cfg), null, 'readable by others is not writable by them');
    fs.chmodSync(h.cfg.spoolDir, 0o770);
    assert.match(stateRefusal(h.cfg) ?? '', /spool is writable by group \(mode 770\)/);
    fs.chmodSync(h.cfg.spoolDir, 0o700);
    fs.chmodSync(h.state, 0o703);
    assert.match(stateRefusal(h.cfg) ?? '', /\.sheet-workspace is writable by others/);
    fs.chmodSync(h.state, 0o700);

    const link = home('http://x', 'k');
    fs.renameSync(link.cfg.spoolDir, path.join(link.dir, 'real-spool'));
    fs.symlinkSync(path.join(link.dir, 'real-spool'), link.cfg.spoolDir);
    assert.match(stateRefusal(link.cfg) ?? '', /spool is a symbolic link/);

    const linkedState = home('http://x', 'k');
    fs.renameSync(linkedState.state, path.join(linkedState.dir, 'elsewhere'));
    fs.symlinkSync(path.join(linkedState.dir, 'elsewhere'), linkedState.state);
    assert.match(stateRefusal(linkedState.cfg) ?? '', /\.sheet-workspace is a symbolic link/);

    const file = home('http://x', 'k');
    fs.rmSync(file.cfg.inboxDir, { recursive: true, force: true });
    fs.writeFileSync(file.cfg.inboxDir, '');
    assert.match(stateRefusal(file.cfg) ?? '', /inbox is not a folder/);

    if (process.getuid?.() === 0) {
      const theirs = home('http://x', 'k');
      fs.chownSync(theirs.state, 65534, 65534);
      assert.match(stateRefusal(theirs.cfg) ?? '', /belongs to uid 65534, not to this user \(uid 0\)/);
    }
  });

  for (const [label, spoil] of [
    ['writable by others', (h: ReturnType<typeof home>) => fs.chmodSync(h.state, 0o777)],
    [
      'a symbolic link',
      (h: ReturnType<typeof home>) => {
        fs.renameSync(h.state, path.join(h.dir, 'real'));
        fs.symlinkSync(path.join(h.dir, 'real'), h.state);
      },
    ],
    ...(process.getuid?.() === 0 ? [["another user's", (h: ReturnType<typeof home>) => fs.chownSync(h.state, 65534, 65534)] as const] : []),
  ] as const) {
    it(`a state folder ${label}: the sender sends nothing from it and says why once; capture keeps nothing; SessionStart tells the user`, async () => {
      await listening;
      const h = home(url(), 'sk_state');
      spoil(h);
      const waiting = h.spool.list();
      requests.length = 0;
      const sender = await run([HOOK_SCRIPT, 'flush'], h.env);
      assert.equal(sender.code, 0);
      assert.deepEqual(requests, [], 'nothing sent, not even the probe');
      assert.equal(sender.stderr.trim().split('\n').length, 1, sender.stderr);
      assert.match(sender.stderr, /state folder .* nothing kept there is read or sent/);
      assert.deepEqual(h.spool.list(), waiting, 'the entries are left as they are');

      const todo = { session_id: 's', cwd: tmp, hook_event_name: 'PostToolUse', tool_name: 'TodoWrite', tool_input: { todos: [{ content: 'x', status: 'pending' }] } };
      assert.equal((await runShell(`sh "${CAPTURE_SCRIPT}" PostToolUse`, todo, h.env)).code, 0);
      const inbox = path.join(h.state, 'inbox');
      assert.deepEqual(fs.existsSync(inbox) ? fs.readdirSync(inbox) : [], [], 'capture.sh kept nothing');
      assert.equal((await run([HOOK_SCRIPT, 'PostToolUse'], h.env, JSON.stringify(todo))).code, 0);
      assert.deepEqual(fs.existsSync(inbox) ? fs.readdirSync(inbox) : [], [], 'nor the node hook');

      const start = await runShell(`sh "${SESSION_START_SCRIPT}"`, {}, h.env, tmp);
      assert.equal(start.code, 0);
      assert.match(JSON.parse(start.stdout).systemMessage, /Sheet Workspace: state folder .*nothing kept there is read or sent/);
      assert.ok(
        (requests as string[]).every((r) => r.startsWith('GET /v1/briefing')),
        requests.join(', '),
      );
      assert.deepEqual(h.spool.list(), waiting);
      assert.equal(fs.existsSync(path.join(h.state, 'hook.log')), false, 'nothing written there');
    });
  }
});
