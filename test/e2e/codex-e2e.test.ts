import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../src/cli/connect.js';
import { eventually, filesUnder, gitProject, removeTempDirs, runSession, tempDir } from '../claude-code-cli.js';
import { startFakeAnthropic, requestText } from '../fake-anthropic.js';
import { responsesText, startFakeResponses, type FakeResponses } from '../fake-openai-responses.js';
import { dialects, startServer, type TestServer } from '../helpers.js';
import { switchableProxy } from '../switchable-proxy.js';

/**
 * The real Codex CLI (devDependency @openai/codex 0.171.0, its native binary; nothing fetched at run time) offline: the
 * model is test/fake-openai-responses.ts through a custom model provider, HOME and CODEX_HOME are temp folders,
 * `connect('codex')` writes the hooks and the MCP server. `codex exec` runs SessionStart, Stop and SessionEnd hooks; user
 * hooks run only once trusted (the TUI's /hooks review), so the runs pass --dangerously-bypass-hook-trust.
 */
const CODEX = createRequire(import.meta.url).resolve('@openai/codex/bin/codex.js');
const SECRET = 'sk-proj-Zq8Rt5Lm2Vx9Kp4Wn7Hc3Jd6Fg1Bs0Ty';

function runCodex(home: string, cwd: string, prompt: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CODEX, 'exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '-C', cwd, prompt], {
      env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: path.join(home, '.codex'), LANG: 'C.UTF-8', FAKE_OPENAI_KEY: 'dummy', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** A home with Codex pointed at the fake model, then connected to the service by `connect`. */
function codexHome(fake: FakeResponses, cwd: string, url: string, key: string): string {
  const home = tempDir('codex-home-');
  fs.mkdirSync(path.join(home, '.codex'));
  fs.writeFileSync(
    path.join(home, '.codex', 'config.toml'),
    [
      'model = "gpt-fake"',
      'model_provider = "fake"',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${fake.url}"`,
      'wire_api = "responses"',
      'env_key = "FAKE_OPENAI_KEY"',
      `[projects."${cwd}"]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  connect('codex', { url, key, home });
  return home;
}

const spoolOf = (home: string) => filesUnder(path.join(home, '.sheet-workspace', 'codex-spool'));

for (const dialect of dialects()) {
  describe(`Codex CLI, offline, connected to the service (${dialect})`, () => {
    let s: TestServer;
    let fake: FakeResponses;
    let key: string;
    let cwd: string;
    let home: string;
    const sessionsOf = async (project: string) => (await s.req('GET', `/v1/sessions?project=${project}`, { key })).body.sessions as any[];

    before(async () => {
      s = await startServer(dialect);
      key = (await s.user('pro')).key;
      fake = await startFakeResponses();
      cwd = gitProject('https://github.com/acme/rocket-app.git');
      home = codexHome(fake, cwd, s.url, key);
    });
    after(async () => {
      await fake.close();
      await s.close();
      removeTempDirs();
    });

    it('connect writes the hooks, the MCP server and the key (mode 600), and a second run changes nothing', () => {
      const config = fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8');
      assert.match(config, /\[mcp_servers\.sheet-workspace\]\nurl = "http:\/\/127\.0\.0\.1:\d+\/mcp"/);
      assert.match(config, /^model_provider = "fake"$/m, 'what was there stays');
      assert.equal(fs.statSync(path.join(home, '.codex', 'config.toml')).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.join(home, '.sheet-workspace', 'connect.json')).mode & 0o777, 0o600);
      const hooks = JSON.parse(fs.readFileSync(path.join(home, '.codex', 'hooks.json'), 'utf8')).hooks;
      assert.deepEqual(Object.keys(hooks).sort(), ['SessionEnd', 'SessionStart', 'Stop']);
      assert.deepEqual(connect('codex', { url: s.url, key, home }).slice(0, 1), ['nothing to change: already connected']);
    });

    it('a session with an edit and a failing command is captured, redacted, named from the work', async () => {
      fake.script(
        [
          { type: 'message', text: 'Let me check the assets folder.' },
          { type: 'function_call', name: 'exec_command', arguments: { cmd: 'ls /nonexistent-assets-dir' } },
        ],
        [{ type: 'function_call', name: 'exec_command', arguments: { cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/launch.js\n+export const launch = () => 'go';\n*** End Patch\nEOF" } }],
        [{ type: 'message', text: 'I added the launch module and found the assets folder missing.' }],
      );
      const r = await runCodex(home, cwd, `add a launch module; the deploy token is ${SECRET}`);
      assert.equal(r.code, 0, r.out);
      assert.ok(fs.existsSync(path.join(cwd, 'src', 'launch.js')), 'the edit happened');
      const [session] = await eventually(async () => ((await sessionsOf('rocket-app')).length ? sessionsOf('rocket-app') : undefined), 'the captured session');
      const full = (await s.req('GET', `/v1/sessions/${session.id}`, { key })).body.session;
      assert.equal(full.agent, 'codex');
      assert.equal(full.source, 'capture');
      assert.match(full.external_id, /^codex:[0-9a-f-]{36}$/);
      assert.equal(full.title, 'I added the launch module and found the assets folder missing');
      assert.deepEqual(full.files_changed, ['src/launch.js']);
      assert.deepEqual(full.errors, [{ command: 'ls /nonexistent-assets-dir', error: "ls: cannot access '/nonexistent-assets-dir': No such file or directory" }]);
      assert.match(full.prompts[0], /deploy token is \[REDACTED\]/);
      assert.ok(!JSON.stringify(full).includes(SECRET), 'the secret is not stored');
      assert.deepEqual(spoolOf(home), [], 'nothing waits');
    });

    it("the next session's first model request holds the briefing with the last session", async () => {
      const before = fake.turns().length;
      fake.script([{ type: 'message', text: 'Nothing to do.' }]);
      const r = await runCodex(home, cwd, 'what is left?');
      assert.equal(r.code, 0, r.out);
      const first = responsesText(fake.turns()[before].body);
      assert.match(first, /I added the launch module and found the assets folder missing/);
      assert.match(first, /ls \/nonexistent-assets-dir/);
    });

    it('with the service down the session waits in the spool (redacted, owner-only) and is sent by the next session', async () => {
      const proxy = await switchableProxy(s.url);
      const viaProxy = codexHome(fake, cwd, proxy.url, key);
      try {
        proxy.state.up = false;
        fake.script([{ type: 'message', text: 'I renamed the rocket stage constants for the launch checklist.' }]);
        const down = await runCodex(viaProxy, cwd, `rename the stage constants ${SECRET}`);
        assert.equal(down.code, 0, down.out);
        const waiting = spoolOf(viaProxy);
        assert.equal(waiting.length, 1, 'one entry per session, however many hooks ran');
        assert.equal(fs.statSync(waiting[0]).mode & 0o777, 0o600);
        const text = fs.readFileSync(waiting[0], 'utf8');
        assert.ok(!text.includes(SECRET) && !text.includes(key), 'the spool holds neither the secret nor the key');
        const titles = async () => (await sessionsOf('rocket-app')).map((x) => x.title);
        assert.ok(!(await titles()).some((t) => /renamed the rocket stage/.test(t)));
        fake.script([{ type: 'message', text: 'Nothing to do.' }]);
        proxy.state.up = true;
        assert.equal((await runCodex(viaProxy, cwd, 'anything left?')).code, 0);
        assert.ok(
          (await titles()).some((t) => /I renamed the rocket stage constants/.test(t)),
          'sent once the service is back',
        );
        assert.deepEqual(spoolOf(viaProxy), [], 'and the spool holds nothing');
      } finally {
        await proxy.close();
      }
    });

    it('a Codex session briefs the next Claude Code session of the same project, and that one briefs the next Codex session', { skip: dialect !== 'sqlite' && 'once is enough' }, async () => {
      const anthropic = await startFakeAnthropic();
      try {
        const ccHome = tempDir('cc-home-');
        anthropic.script(
          [{ type: 'tool_use', name: 'Write', input: { file_path: path.join(cwd, 'src', 'countdown.js'), content: 'export const countdown = 10;\n' } }],
          [{ type: 'text', text: 'I wrote the countdown timer for the launch pad.' }],
        );
        const run = await runSession({ home: ccHome, cwd, prompt: 'write the countdown timer', fake: anthropic, env: { SHEET_WORKSPACE_URL: s.url, SHEET_WORKSPACE_API_KEY: key } });
        const first = anthropic.mainRequests()[0];
        assert.ok(first, `Claude Code asked the model: ${run.stderr}`);
        assert.match(requestText(first.body), /I added the launch module and found the assets folder missing/, 'Codex -> Claude Code');

        const captured = await eventually(async () => (await sessionsOf('rocket-app')).find((x) => x.agent === 'claude-code'), 'the Claude Code session');
        assert.match(`${captured.title}\n${captured.summary}`, /countdown timer/);
        const before = fake.turns().length;
        fake.script([{ type: 'message', text: 'Nothing to do.' }]);
        assert.equal((await runCodex(home, cwd, 'what did claude do?')).code, 0);
        const codexFirst = responsesText(fake.turns()[before].body);
        assert.match(codexFirst, /countdown timer/, 'Claude Code -> Codex');
        assert.match(codexFirst, /src\/countdown\.js/);
      } finally {
        await anthropic.close();
      }
    });
  });
}
