import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Row } from './report.js';

/**
 * How long the Claude Code plugin's hooks hold the assistant: each hook command of
 * plugins/claude-code/hooks/hooks.json run the way Claude Code runs it (a shell, the event's JSON
 * on stdin, CLAUDE_PLUGIN_ROOT set), against a running service, from spawn to exit. The floor is
 * `node -e 0` through the same shell, run in the same rounds: what starting Node alone costs on this machine.
 * A capture hook (capture.sh) returns before its detached sender has sent the event: for those the bench also waits
 * until the sender is done (inbox and spool empty, its lock gone) and reports that time as "until sent", so the
 * next run starts on a quiet machine and the cost moved out of the assistant's way stays in view.
 */

const ROOT = new URL('..', import.meta.url).pathname;
const PLUGIN_ROOT = path.join(ROOT, 'plugins', 'claude-code');
/**
 * BENCH_HOOKS_BEFORE=<dir>: another copy of the plugin (say an older commit's, `git archive`d) measured in the same
 * rounds, for a before/after that a busy machine cannot skew.
 */
const BEFORE_ROOT = process.env.BENCH_HOOKS_BEFORE ? path.resolve(process.env.BENCH_HOOKS_BEFORE) : undefined;

interface HookCommand {
  event: string;
  matcher?: string;
  command: string;
}

function hookCommands(pluginRoot: string): HookCommand[] {
  const config = JSON.parse(fs.readFileSync(path.join(pluginRoot, 'hooks', 'hooks.json'), 'utf8')).hooks as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
  return Object.entries(config).flatMap(([event, groups]) => groups.flatMap((g) => g.hooks.map((h) => ({ event, matcher: g.matcher, command: h.command }))));
}

const msSince = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** Whether a detached sender still has work: events in the inbox, requests in the spool, or its lock held. */
function senderBusy(stateDir: string): boolean {
  const entries = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.startsWith('.tmp-')) : []);
  return entries(path.join(stateDir, 'inbox')).length > 0 || entries(path.join(stateDir, 'spool')).length > 0;
}

async function runOnce(c: { command: string; stdin: string; stateDir?: string }, env: Record<string, string>, cwd: string): Promise<{ ms: number; sentMs?: number }> {
  const started = process.hrtime.bigint();
  const child = spawn('/bin/sh', ['-c', c.command], { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.end(c.stdin);
  const ms = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`hook "${c.command}" exited ${code}`));
      resolve(msSince(started));
    });
  });
  if (!c.stateDir) return { ms };
  const until = Date.now() + 10_000;
  while (senderBusy(c.stateDir)) {
    if (Date.now() > until) throw new Error(`the sender of "${c.command}" did not finish in 10 s`);
    await new Promise((r) => setTimeout(r, 1));
  }
  return { ms, sentMs: msSince(started) };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** A project folder, a transcript of a short session, and the payload Claude Code sends for each hook. */
function fixture() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-hooks-'));
  const cwd = path.join(home, 'bench-app');
  fs.mkdirSync(cwd);
  execFileSync('git', ['init', '-q'], { cwd });
  execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/bench-app.git'], { cwd });
  const sessionId = '3f0c9a1e-5b7d-4c2e-9f81-6a2b4c8d0e13';
  const transcriptPath = path.join(home, 'transcript.jsonl');
  const lines = [{ type: 'user', message: { role: 'user', content: 'Add the retry loop and a test' } }];
  for (let i = 0; i < 20; i++) {
    lines.push({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: i % 2 ? 'Edit' : 'Write', input: { file_path: path.join(cwd, `src/file${i % 5}.ts`), content: 'x'.repeat(400) } }] },
    } as any);
    lines.push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'ok' }] } } as any);
  }
  lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Retry loop added with a test.' }] } } as any);
  fs.writeFileSync(transcriptPath, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const base = { session_id: sessionId, transcript_path: transcriptPath, cwd };
  const payloads: Record<string, object> = {
    SessionStart: { ...base, hook_event_name: 'SessionStart', source: 'startup' },
    PreCompact: { ...base, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null },
    SessionEnd: { ...base, hook_event_name: 'SessionEnd', reason: 'other' },
    PostToolUse: {
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'TaskCreate',
      tool_input: { subject: 'Bench the hooks', description: 'median under 100 ms' },
      tool_response: { task: { id: '1', subject: 'Bench the hooks' } },
      tool_use_id: 'toolu_x',
    },
    TaskCreated: { ...base, hook_event_name: 'TaskCreated', task_id: '1', task_subject: 'Bench the hooks', task_description: 'median under 100 ms' },
    TaskCompleted: { ...base, hook_event_name: 'TaskCompleted', task_id: '1', task_subject: 'Bench the hooks', task_description: 'median under 100 ms' },
  };
  return { home, cwd, payloads };
}

/**
 * One run of each command per round, round after round: the floor and every hook see the same load, so their ratio
 * holds on a busy machine too, where node -e 0 alone can take several times its quiet ~65 ms.
 */
async function measureInterleaved(commands: { command: string; stdin: string; stateDir?: string }[], runs: number, env: Record<string, string>, cwd: string) {
  for (const c of commands) await runOnce(c, env, cwd); // warm the file cache
  const times = commands.map(() => ({ ms: [] as number[], sentMs: [] as number[] }));
  for (let i = 0; i < runs; i++) {
    for (const [j, c] of commands.entries()) {
      const r = await runOnce(c, env, cwd);
      times[j].ms.push(r.ms);
      if (r.sentMs !== undefined) times[j].sentMs.push(r.sentMs);
    }
  }
  const sorted = (t: number[]) => t.sort((a, b) => a - b);
  return times.map((t) => ({ ms: sorted(t.ms), sentMs: t.sentMs.length ? sorted(t.sentMs) : undefined }));
}

export async function benchHooks(o: { base: string; apiKey: string; runs?: number; log: (s: string) => void }): Promise<Row[]> {
  const runs = o.runs ?? 30;
  const { home, cwd, payloads } = fixture();
  const env: Record<string, string> = {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: home,
    CLAUDE_PLUGIN_ROOT: PLUGIN_ROOT,
    CLAUDE_PROJECT_DIR: cwd,
    SHEET_WORKSPACE_URL: o.base,
    SHEET_WORKSPACE_API_KEY: o.apiKey,
  };
  const plugins = [{ label: '', root: PLUGIN_ROOT }, ...(BEFORE_ROOT ? [{ label: ' [before]', root: BEFORE_ROOT }] : [])];
  const hooks = plugins.flatMap((p) => {
    const seen = new Set<string>();
    return hookCommands(p.root).flatMap((h) => {
      const payload = payloads[h.event];
      if (!payload || seen.has(h.event)) return [];
      seen.add(h.event);
      const command = h.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', p.root);
      const stateDir = command.includes('capture.sh') ? path.join(home, '.sheet-workspace') : undefined;
      return [{ name: `Hook ${h.event}${h.event === 'PostToolUse' ? ' (TaskCreate)' : ''}${p.label}, ${runs} runs`, command, stdin: JSON.stringify(payload), stateDir }];
    });
  });
  const load = os.loadavg()[0];
  const [{ ms: floor }, ...timed] = await measureInterleaved([{ command: `"${process.execPath}" -e 0`, stdin: '' }, ...hooks], runs, env, cwd);
  const floorMedian = quantile(floor, 0.5);
  o.log(`hooks: floor node -e 0 median ${floorMedian.toFixed(1)} ms; load average ${load.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after`);
  const rows: Row[] = [{ name: 'Floor: node -e 0 through /bin/sh', value: floorMedian, unit: 'ms', p95: quantile(floor, 0.95), target: '' }];
  for (const [j, h] of hooks.entries()) {
    const { ms, sentMs } = timed[j];
    const median = quantile(ms, 0.5);
    o.log(`${h.name}: median ${median.toFixed(1)} ms (${(median / floorMedian).toFixed(2)} x floor), p95 ${quantile(ms, 0.95).toFixed(1)} ms`);
    rows.push({ name: h.name, value: median, unit: 'ms', floor: floorMedian, ratio: median / floorMedian, p95: quantile(ms, 0.95), target: 'median <= 100 ms', met: median <= 100 });
    if (!sentMs) continue;
    const sent = quantile(sentMs, 0.5);
    o.log(`${h.name}, until sent: median ${sent.toFixed(1)} ms, p95 ${quantile(sentMs, 0.95).toFixed(1)} ms`);
    rows.push({
      name: `${h.name.replace(/, \d+ runs$/, '')}, until its detached sender has sent it`,
      value: sent,
      unit: 'ms',
      floor: floorMedian,
      ratio: sent / floorMedian,
      p95: quantile(sentMs, 0.95),
      target: '',
    });
  }
  fs.rmSync(home, { recursive: true, force: true });
  return rows;
}
