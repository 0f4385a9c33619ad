import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { FakeAnthropic } from './fake-anthropic.js';

/**
 * Runs the real Claude Code CLI (the devDependency @anthropic-ai/claude-code) offline: HOME is a
 * fresh temp folder, the Messages API is test/fake-anthropic.ts, nothing is fetched at run time.
 * What these helpers rely on, as observed with 2.1.332 in print mode:
 * - no onboarding or trust dialog in -p; bypassPermissions refuses to run as root unless IS_SANDBOX=1;
 * - plugin hooks run in -p (SessionStart, PostToolUse, TaskCreated/TaskCompleted, PreCompact, SessionEnd),
 *   and `--output-format stream-json --verbose --include-hook-events` reports each one's start and end;
 * - SessionEnd hooks are cancelled 1.5 s after they start ("SessionEnd hook [...] failed: Hook cancelled");
 * - TaskCreate/TaskUpdate are offered only for some models (claude-sonnet-4-6, older) or with
 *   CLAUDE_CODE_ENABLE_TODO_TOOLS=1; they and all MCP tools are deferred (named in a system message, loaded
 *   with ToolSearch), yet a direct call by name works;
 * - SessionStart's additionalContext reaches the model as a system-role message and the transcript as an
 *   attachment {type: "hook_additional_context"}; on `-p --resume` it is not injected;
 * - `plugin validate --profile directory` takes a plugin folder only, not a marketplace.
 */

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
export const PLUGIN_DIR = path.join(REPO_ROOT, 'plugins', 'claude-code');

function platformPackage(): string {
  const musl = process.platform === 'linux' && (process.report?.getReport() as any)?.header?.glibcVersionRuntime === undefined;
  return `@anthropic-ai/claude-code-${process.platform}-${process.arch}${musl ? '-musl' : ''}`;
}

/** The native binary of the installed CLI: the platform package, else the wrapper's linked copy. */
export function claudeBinary(): string {
  const require = createRequire(import.meta.url);
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  for (const spec of [`${platformPackage()}/${exe}`, '@anthropic-ai/claude-code/bin/claude.exe']) {
    try {
      const file = require.resolve(spec);
      if (fs.statSync(file).size > 1_000_000) return file;
    } catch {
      /* try the next */
    }
  }
  throw new Error('Claude Code CLI not installed: run npm install (devDependency @anthropic-ai/claude-code)');
}

const made: string[] = [];

export function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Removes the temp HOMEs and projects made so far (call when the file's sessions are over). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A git repository (one commit) whose origin is `remote`, as a user's checkout would be. */
export function gitProject(remote = 'https://github.com/acme/rocket-app.git'): string {
  const dir = tempDir('cc-proj-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('remote', 'add', 'origin', remote);
  fs.writeFileSync(path.join(dir, 'README.md'), '# rocket\n');
  git('add', 'README.md');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The result line of --output-format json or stream-json, when there was one. */
  result: any;
  /** stream-json lines, each with the time it reached us (ms since the start). */
  lines: { at: number; line: any }[];
  ms: number;
}

export interface HookRun {
  /** e.g. "SessionStart:startup", "PostToolUse:TaskCreate", "TaskCreated". */
  name: string;
  event: string;
  exitCode: number | undefined;
  outcome: string | undefined;
  /** From hook_started to hook_response as seen on the CLI's stdout. */
  ms: number;
}

/** The hooks a stream-json run reported (--include-hook-events), with how long each took. */
export function hookRuns(r: CliResult): HookRun[] {
  const started = new Map<string, number>();
  const runs: HookRun[] = [];
  for (const { at, line } of r.lines) {
    if (line.type !== 'system') continue;
    if (line.subtype === 'hook_started') started.set(line.hook_id, at);
    if (line.subtype === 'hook_response') {
      runs.push({ name: line.hook_name, event: line.hook_event, exitCode: line.exit_code, outcome: line.outcome, ms: at - (started.get(line.hook_id) ?? at) });
    }
  }
  return runs;
}

/**
 * The environment of a run: only what a user's shell would give plus ours, so nothing of the
 * environment the tests themselves run in (a Claude Code session, say) leaks into the CLI.
 */
export function cliEnv(home: string, fake: Pick<FakeAnthropic, 'url'> | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    LANG: 'C.UTF-8',
    TMPDIR: os.tmpdir(),
    // Without a stand-in, the plugin commands get no key and a refused address: with a key and the default
    // URL, `plugin marketplace add` waits ~17 s on api.anthropic.com, and nothing may leave the machine.
    ANTHROPIC_BASE_URL: fake?.url ?? 'http://127.0.0.1:9',
    ...(fake ? { ANTHROPIC_API_KEY: 'dummy' } : {}),
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // bypassPermissions refuses to run as root unless told it is in a sandbox (CI containers run as root).
    IS_SANDBOX: '1',
    ...extra,
  };
}

/** Runs `claude <args>` and collects its output; kills it after `timeoutMs`. */
export function runCli(args: string[], o: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<CliResult> {
  const started = Date.now();
  const child = spawn(claudeBinary(), args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const lines: CliResult['lines'] = [];
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    const parts = (partial + d).split('\n');
    partial = parts.pop()!;
    for (const text of parts) {
      try {
        lines.push({ at: Date.now() - started, line: JSON.parse(text) });
      } catch {
        /* not a stream-json line */
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      let result: any;
      try {
        result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
      } catch {
        /* not a json run */
      }
      resolve({ code, stdout, stderr, result: result?.type === 'result' ? result : undefined, lines, ms: Date.now() - started });
    });
  });
}

export interface SessionRun {
  home: string;
  cwd: string;
  prompt: string;
  fake: FakeAnthropic;
  env?: Record<string, string>;
  /** Load the plugin from this directory (default: the repository's plugin); null: only what is installed. */
  pluginDir?: string | null;
  resume?: string;
  /**
   * Default claude-sonnet-4-6: in 2.1.332 the task tools (TaskCreate, TaskUpdate) are offered only for
   * such models (or with CLAUDE_CODE_ENABLE_TODO_TOOLS=1), not for the CLI's own default model.
   */
  model?: string;
  timeoutMs?: number;
  /** More CLI arguments (say --session-id <uuid>). */
  args?: string[];
}

/**
 * One print-mode session: `claude -p <prompt>` with the plugin, permissions bypassed, stream-json
 * output with the hook events (see hookRuns).
 */
export async function runSession(o: SessionRun): Promise<CliResult> {
  const args = ['-p', o.prompt, '--output-format', 'stream-json', '--verbose', '--include-hook-events', '--permission-mode', 'bypassPermissions'];
  const plugin = o.pluginDir === undefined ? PLUGIN_DIR : o.pluginDir;
  if (plugin) args.push('--plugin-dir', plugin);
  if (o.resume) args.push('--resume', o.resume);
  args.push('--model', o.model ?? 'claude-sonnet-4-6', ...(o.args ?? []));
  const r = await runCli(args, { cwd: o.cwd, env: cliEnv(o.home, o.fake, o.env), timeoutMs: o.timeoutMs });
  if (r.code !== 0 || r.result?.is_error) {
    throw new Error(`claude exited ${r.code} after ${r.ms} ms\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  }
  return r;
}

/** The session's transcript lines (~/.claude/projects/<cwd>/<session_id>.jsonl), parsed. */
export function transcript(home: string, sessionId: string): any[] {
  const root = path.join(home, '.claude', 'projects');
  for (const dir of fs.readdirSync(root)) {
    const file = path.join(root, dir, `${sessionId}.jsonl`);
    if (fs.existsSync(file))
      return fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
  }
  throw new Error(`no transcript for ${sessionId} under ${root}`);
}

/** Polls `probe` until it returns a value other than undefined (a hand-off to a detached sender may still be on its way). */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, explain?: () => Promise<string>, timeoutMs = 8_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}${explain ? `: ${await explain()}` : ''}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Every file under `dir` (recursively), for checking what a spool or a data folder holds. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}
