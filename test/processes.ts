import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import { createPgDatabase, request, type Res } from './helpers.js';

/**
 * A real server process (node --import tsx src/main.ts serve, or with `built` the bundle in build/
 * that `npm start` runs), for tests that need several processes on one database and one Redis.
 */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Every log line so far (pino JSON, parsed when possible). */
  logs: Record<string, unknown>[];
  req<T = any>(method: string, urlPath: string, opts?: { key?: string; body?: unknown }): Promise<Res<T>>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ROOT = path.resolve(import.meta.dirname, '..');

export async function startProcess(env: Record<string, string>, command = 'serve', opts: { built?: boolean } = {}): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-proc-'));
  const entry = opts.built ? ['build/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, [...entry, command], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BOOTSTRAP_OWNER: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${stderr}`)), 30_000);
    void exited.then((code) => reject(new Error(`server exited with ${code} before it was up:\n${stderr}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        entry = { text: line };
      }
      logs.push(entry);
      if (entry.msg === 'Sheet Workspace is up') {
        clearTimeout(timer);
        resolve(String(entry.url ?? '').replace(/\/v1$/, ''));
      }
    });
  });

  return {
    url,
    child,
    logs,
    req: (method, urlPath, o) => request(url, method, urlPath, o),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const code = await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * A fresh PostgreSQL database, a container on it for setting up accounts, and two real server
 * processes on it (rate limits and the webhook worker off unless env says otherwise).
 */
export async function startTwoPgProcesses(env: Record<string, string> = {}): Promise<{ admin: Container; procs: ServerProcess[]; stop(): Promise<void> }> {
  const pg = await createPgDatabase();
  const admin = await createContainer(loadConfig({ DATABASE_URL: pg.url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sw-admin-')), LOG_LEVEL: 'silent' }));
  const procEnv = { DATABASE_URL: pg.url, RATE_LIMIT_DISABLED: '1', WEBHOOK_WORKER: '0', ...env };
  const procs = await Promise.all([startProcess(procEnv), startProcess(procEnv)]);
  return {
    admin,
    procs,
    async stop() {
      await Promise.all(procs.map((p) => p.stop()));
      await admin.close();
      await pg.drop();
    },
  };
}
