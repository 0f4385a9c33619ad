import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../src/cli/connect.js';
import { eventually, filesUnder, gitProject, REPO_ROOT, removeTempDirs, tempDir } from '../claude-code-cli.js';
import { startFakeGemini, type FakeGemini } from '../fake-gemini.js';
import { dialects, startServer, type TestServer } from '../helpers.js';
import { switchableProxy, type SwitchableProxy } from '../switchable-proxy.js';

/**
 * The real Gemini CLI (devDependency @google/gemini-cli 0.61.0; nothing fetched at run time) offline: the model is
 * test/fake-gemini.ts (GOOGLE_GEMINI_BASE_URL), HOME is a temp folder, `connect('gemini-cli')` links the extension in
 * plugins/gemini-cli, adds the MCP server and, as --trust-folder asks, trusts the project folder: a headless run
 * (`gemini -p`) in a folder that is not trusted exits with code 55 (FatalUntrustedWorkspaceError) before any hook runs.
 * The service is reached through a loopback proxy that can be taken down, so one home serves every session.
 */
const GEMINI = createRequire(import.meta.url).resolve('@google/gemini-cli/bundle/gemini.js');
const SECRET = 'sk-proj-Zq8Rt5Lm2Vx9Kp4Wn7Hc3Jd6Fg1Bs0Ty';

function runGemini(home: string, cwd: string, prompt: string, fake: FakeGemini): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C.UTF-8', GEMINI_API_KEY: 'dummy', GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_CLI_NO_RELAUNCH: 'true', NO_COLOR: '1' };
    const child = spawn(process.execPath, [GEMINI, '--approval-mode', 'yolo', '-p', prompt], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A home with Gemini CLI on an API key (the fake's), quiet (no telemetry, no update check), then connected. */
function geminiHome(cwd: string, url: string, key: string, trust = true): { home: string; lines: string[] } {
  const home = tempDir('gemini-home-');
  fs.mkdirSync(path.join(home, '.gemini'));
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
  return { home, lines: connect('gemini-cli', { url, key, home, trustFolder: trust ? cwd : undefined }) };
}

const spoolOf = (home: string) => filesUnder(path.join(home, '.sheet-workspace', 'gemini-spool'));
const requestText = (body: any) => JSON.stringify(body?.contents ?? []);

for (const dialect of dialects()) {
  describe(`Gemini CLI, offline, connected to the service (${dialect})`, () => {
    let s: TestServer;
    let fake: FakeGemini;
    let proxy: SwitchableProxy;
    let key: string;
    let cwd: string;
    let home: string;
    let lines: string[];
    const sessionsOf = async () => (await s.req('GET', '/v1/sessions?project=rocket-app', { key })).body.sessions as any[];

    before(async () => {
      s = await startServer(dialect);
      key = (await s.user('pro')).key;
      fake = await startFakeGemini();
      proxy = await switchableProxy(s.url);
      cwd = gitProject('https://github.com/acme/rocket-app.git');
      ({ home, lines } = geminiHome(cwd, proxy.url, key));
    });
    after(async () => {
      await proxy.close();
      await fake.close();
      await s.close();
      removeTempDirs();
    });

    it('connect links the extension, adds the MCP server, trusts only the folder asked for, and says so', () => {
      const gemini = path.join(home, '.gemini');
      const install = JSON.parse(fs.readFileSync(path.join(gemini, 'extensions', 'sheet-workspace', '.gemini-extension-install.json'), 'utf8'));
      assert.deepEqual(install, { source: path.join(REPO_ROOT, 'plugins', 'gemini-cli'), type: 'link' });
      const settings = JSON.parse(fs.readFileSync(path.join(gemini, 'settings.json'), 'utf8'));
      assert.deepEqual(settings.mcpServers['sheet-workspace'], { httpUrl: `${proxy.url}/mcp`, headers: { Authorization: `Bearer ${key}` } });
      assert.equal(settings.security.auth.selectedType, 'gemini-api-key', 'what was there stays');
      assert.equal(fs.statSync(path.join(gemini, 'settings.json')).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.join(home, '.sheet-workspace', 'connect.json')).mode & 0o777, 0o600);
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(gemini, 'trustedFolders.json'), 'utf8')), { [cwd]: 'TRUST_FOLDER' });
      assert.ok(
        lines.some((l) => l.includes(`${cwd} is trusted`)),
        lines.join('\n'),
      );
      const again = connect('gemini-cli', { url: proxy.url, key, home, trustFolder: cwd });
      assert.equal(again[0], 'nothing to change: already connected');
      const plain = connect('gemini-cli', { url: proxy.url, key, home: tempDir('gemini-plain-') });
      assert.ok(
        plain.some((l) => /exit with code 55/.test(l) && /--trust-folder/.test(l)),
        'without --trust-folder it says what to do',
      );
      assert.ok(!plain.some((l) => /trustedFolders\.json/.test(l)), 'and trusts nothing');
    });

    it('`npm run cli -- connect gemini-cli` (the bundled build) links the extension of this checkout', { skip: dialect !== 'sqlite' && 'once is enough' }, () => {
      const cliHome = tempDir('gemini-cli-home-');
      const out = execFileSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'sheet-workspace.js'), 'connect', 'gemini-cli', '--url', proxy.url, '--key', key], {
        env: { PATH: process.env.PATH ?? '', HOME: cliHome },
        encoding: 'utf8',
      });
      const install = JSON.parse(fs.readFileSync(path.join(cliHome, '.gemini', 'extensions', 'sheet-workspace', '.gemini-extension-install.json'), 'utf8'));
      assert.equal(install.source, path.join(REPO_ROOT, 'plugins', 'gemini-cli'), out);
      assert.ok(fs.existsSync(path.join(install.source, 'gemini-extension.json')));
    });

    it('without the trust, a headless run stops with exit code 55 before any hook runs (the cause connect names)', { skip: dialect !== 'sqlite' && 'once is enough' }, async () => {
      const untrusted = geminiHome(cwd, proxy.url, key, false).home;
      const r = await runGemini(untrusted, cwd, 'hello', fake);
      assert.equal(r.code, 55, r.out);
      assert.match(r.out, /not running in a trusted directory/);
      assert.equal(fake.requests.length, 0, 'the model was never asked');
      assert.deepEqual(
        filesUnder(path.join(untrusted, '.sheet-workspace')).map((f) => path.basename(f)),
        ['connect.json'],
        'no hook ran',
      );
    });

    it('a session with an edit and a failing command is captured, redacted, named from the work', async () => {
      fake.script(
        [{ text: 'Let me check the assets folder.' }, { functionCall: { name: 'run_shell_command', args: { command: 'ls /nonexistent-assets-dir' } } }],
        [{ functionCall: { name: 'write_file', args: { file_path: path.join(cwd, 'src', 'launch.js'), content: "export const launch = () => 'go';\n" } } }],
        [{ text: 'I added the launch module and found the assets folder missing.' }],
      );
      const r = await runGemini(home, cwd, `add a launch module; the deploy token is ${SECRET}`, fake);
      assert.equal(r.code, 0, r.out);
      assert.ok(fs.existsSync(path.join(cwd, 'src', 'launch.js')), 'the edit happened');
      const [session] = await eventually(async () => ((await sessionsOf()).length ? sessionsOf() : undefined), 'the captured session');
      const full = (await s.req('GET', `/v1/sessions/${session.id}`, { key })).body.session;
      assert.equal(full.agent, 'gemini-cli');
      assert.equal(full.source, 'capture');
      assert.match(full.external_id, /^gemini:[0-9a-f-]{36}$/);
      assert.equal(full.title, 'I added the launch module and found the assets folder missing');
      assert.deepEqual(full.files_changed, ['src/launch.js']);
      assert.deepEqual(full.errors, [{ command: 'ls /nonexistent-assets-dir', error: "ls: cannot access '/nonexistent-assets-dir': No such file or directory" }]);
      assert.match(full.prompts[0], /deploy token is \[REDACTED\]/);
      assert.ok(!JSON.stringify(full).includes(SECRET), 'the secret is not stored');
      assert.deepEqual(spoolOf(home), [], 'nothing waits');
    });

    it('with the service down the session waits in the spool; the next session sends it and its first request holds the briefing', async () => {
      proxy.state.up = false;
      fake.script([{ text: 'I renamed the rocket stage constants for the launch checklist.' }]);
      const down = await runGemini(home, cwd, `rename the stage constants ${SECRET}`, fake);
      assert.equal(down.code, 0, down.out);
      const waiting = spoolOf(home);
      assert.equal(waiting.length, 1, 'one entry per session, however many hooks ran');
      assert.equal(fs.statSync(waiting[0]).mode & 0o777, 0o600);
      const text = fs.readFileSync(waiting[0], 'utf8');
      assert.ok(!text.includes(SECRET) && !text.includes(key), 'the spool holds neither the secret nor the key');
      const titles = async () => (await sessionsOf()).map((x) => x.title);
      assert.ok(!(await titles()).some((t) => /renamed the rocket stage/.test(t)));

      proxy.state.up = true;
      const before = fake.mainRequests().length;
      fake.script([{ text: 'Nothing to do.' }]);
      const next = await runGemini(home, cwd, 'what is left?', fake);
      assert.equal(next.code, 0, next.out);
      const first = requestText(fake.mainRequests()[before].body);
      assert.match(first, /<hook_context>[\s\S]*I added the launch module and found the assets folder missing/);
      assert.match(first, /ls \/nonexistent-assets-dir/);
      assert.ok(
        (await titles()).some((t) => /I renamed the rocket stage constants/.test(t)),
        'sent once the service is back',
      );
      assert.deepEqual(spoolOf(home), [], 'and the spool holds nothing');
    });
  });
}
