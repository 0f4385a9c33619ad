import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';

export const ROOT = new URL('..', import.meta.url).pathname;

export interface Child {
  proc: ChildProcess;
  /** Milliseconds from spawn to the first 200 on the ready path. */
  readyMs: number;
  rssMb(): number;
  /** CPU time the process has used so far (user + system, all threads), in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

function get(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(1000, () => req.destroy());
  });
}

/** A file of /proc/PID (Linux); undefined once the process is gone or where there is no /proc. */
function procFile(pid: number | undefined, name: string): string | undefined {
  if (!pid) return undefined;
  try {
    return fs.readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Resident set size of a process, from /proc (Linux). */
export function rssMbOf(pid: number | undefined): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(procFile(pid, 'status') ?? '');
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * CPU time a process has used (user + system, all its threads), in ms, from /proc (Linux; `file`
 * task/TID/stat: one thread's): fields 14
 * and 15 of /proc/PID/stat, counted after the command name, which may hold spaces, in clock ticks
 * (100 a second on Linux).
 */
export function cpuMsOf(pid: number | undefined, file = 'stat'): number {
  const stat = procFile(pid, file);
  if (stat === undefined) return NaN;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (ms) of each thread of a process, by thread id; the main thread's id is the process id. */
function threadCpuMsOf(pid: number | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (!pid) return out;
  let tids: string[] = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) out.set(Number(tid), cpuMsOf(pid, `task/${tid}/stat`));
  return out;
}

/** The machine's busy and total CPU time so far, in clock ticks (the first line of /proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  const n = fields.slice(0, 8).map(Number);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - n[3] - n[4], total };
}

/**
 * Where the CPU went during a load (Linux): call it before, and call what it returns after. It tells
 * how busy the machine was, how much the load generator (this process) used, and each thread of the
 * measured process, main thread first: a main thread well below 100 % is waiting, not computing.
 */
export function cpuSpread(pid: number | undefined): (requests: number, seconds: number) => string[] {
  const threads = threadCpuMsOf(pid);
  const machine = machineTicks();
  const self = process.cpuUsage();
  return (requests, seconds) => {
    const percent = (ms: number) => `${((100 * ms) / 1000 / seconds).toFixed(0)} % of a core`;
    const perRequest = (ms: number) => `${((ms * 1000) / Math.max(1, requests)).toFixed(0)} µs a request`;
    const m = machineTicks();
    const used = process.cpuUsage(self);
    const lines = [`CPU: machine ${((100 * (m.busy - machine.busy)) / Math.max(1, m.total - machine.total)).toFixed(0)} % busy; load generator ${percent((used.user + used.system) / 1000)}`];
    const after = [...threadCpuMsOf(pid)].map(([tid, ms]) => [tid, ms - (threads.get(tid) ?? 0)] as const).filter(([tid, ms]) => tid === pid || ms >= 50);
    for (const [tid, ms] of after.sort(([a], [b]) => (a === pid ? -1 : b === pid ? 1 : b - a))) {
      lines.push(`  ${tid === pid ? 'main thread' : `thread ${tid}`}: ${percent(ms)}, ${perRequest(ms)}`);
    }
    return lines;
  };
}

/** Spawns `node [nodeArgs] args` and polls readyUrl every 10 ms until it answers 200. */
export async function startChild(opts: { nodeArgs?: string[]; args: string[]; env: Record<string, string>; readyUrl: string; name: string }): Promise<Child> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...opts.args], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => proc.once('exit', () => ((exited = true), resolve())));
  for (;;) {
    if (exited) throw new Error(`${opts.name} exited before it answered ${opts.readyUrl}`);
    if ((await get(opts.readyUrl)) === 200) break;
    if (performance.now() - t0 > 60_000) throw new Error(`${opts.name} did not answer ${opts.readyUrl} within 60 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = performance.now() - t0;
  return {
    proc,
    readyMs,
    rssMb: () => rssMbOf(proc.pid),
    cpuMs: () => cpuMsOf(proc.pid),
    async stop() {
      if (exited) return;
      proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** Runs a CLI command of the service and returns its stdout. */
export function runCli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (err += d));
    proc.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')} failed (${code}): ${err}`))));
  });
}
