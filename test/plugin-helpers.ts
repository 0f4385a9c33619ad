// Helpers of the plugin's hook tests: hook commands run as Claude Code runs them, a port where nothing listens, polling.
import { spawn } from 'node:child_process';
import net from 'node:net';

export interface HookRun {
  code: number | null;
  stdout: string;
  ms: number;
}

/** `command` through /bin/sh -c with the event JSON on stdin, as Claude Code runs a hook; resolves when its pipes close. */
export function runShell(command: string, payload: unknown, env: Record<string, string>, cwd?: string): Promise<HookRun> {
  const started = performance.now();
  const child = spawn('/bin/sh', ['-c', command], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  // A hook that keeps nothing (capture off, no key, a full inbox) exits without reading its stdin, as it may.
  child.stdin.on('error', () => {});
  child.stdin.end(JSON.stringify(payload));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, ms: performance.now() - started })));
}

/** A port nothing listens on: the service is down. */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Polls `probe` every 100 ms until `ok` holds; throws with the last value after `ms`. */
export async function until<T>(probe: () => Promise<T> | T, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}: last ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A service URL that is down until `up()`: then a TCP proxy on the same port forwards to `target`. What the plugin keeps
 * goes only to the URL (and key) it was captured for, so an outage is simulated at one URL, not by switching URLs.
 */
export async function outage(target: string): Promise<{ url: string; up(): Promise<void>; close(): void }> {
  const port = await closedPort();
  const targetPort = Number(new URL(target).port);
  const proxy = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return {
    url: `http://127.0.0.1:${port}`,
    up: () => new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r)),
    close: () => proxy.close(),
  };
}
