import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of a test's own (initdb into a temp dir, a free port), for tests that restart
 * or stop the database: the shared one at TEST_POSTGRES_URL serves other test files at the same time.
 * The binaries are those .ci/run uses (/usr/lib/postgresql/<version>/bin); as root they run as the
 * postgres user, like .ci/run does.
 */
export interface PrivatePg {
  url: string;
  /** pg_ctl -m fast restart, resolving once the database accepts connections again. */
  restart(): Promise<void>;
  /** pg_ctl -m fast stop, and start again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  remove(): Promise<void>;
}

/** Why a private cluster cannot be made here, or undefined when it can. */
export function privatePgUnavailable(): string | undefined {
  if (!pgBin()) return 'no PostgreSQL binaries in /usr/lib/postgresql/*/bin (install postgresql, as .ci/run does)';
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root without a postgres user to run PostgreSQL as (.ci/run creates one)';
    }
  }
  return undefined;
}

function pgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')));
  versions.sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(root, versions[versions.length - 1], 'bin') : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function startPrivatePg(): Promise<PrivatePg> {
  const bin = pgBin()!;
  const asRoot = process.getuid?.() === 0;
  const run = async (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    await promisify(execFile)(file, argv);
  };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-pg-'));
  fs.chmodSync(work, 0o755);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    fs.chownSync(work, uid, gid);
  }
  const data = path.join(work, 'data');
  const port = await freePort();
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const ctl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', path.join(work, 'log'), ...args]);
  const start = () => ctl('-w', '-o', `-p ${port} -k ${work} -c listen_addresses=127.0.0.1 -c max_connections=100 -c fsync=off`, 'start');
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => ctl('-w', '-m', 'fast', 'restart'),
    stop: () => ctl('-w', '-m', 'fast', 'stop'),
    start,
    async remove() {
      await ctl('-w', '-m', 'immediate', 'stop').catch(() => {});
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
