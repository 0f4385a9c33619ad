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
 * CPU time a process has used (user + system, all its threads), in ms, from /proc (Linux): fields 14
 * and 15 of /proc/PID/stat, counted after the command name, which may hold spaces, in clock ticks
 * (100 a second on Linux).
 */
export function cpuMsOf(pid: number | undefined): number {
  const stat = procFile(pid, 'stat');
  if (stat === undefined) return NaN;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
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
