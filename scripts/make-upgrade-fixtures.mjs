#!/usr/bin/env node
// Writes the upgrade fixtures test/api/upgrade.test.ts reads: for each commit, a SQLite data dir and a
// PostgreSQL dump made by THAT version's code, seeded through its own REST API, and a manifest.json
// beside each naming what was written (ids, keys, webhook secrets, expected search hits).
//
//   node scripts/make-upgrade-fixtures.mjs [commit ...]        (default: c69879a 2c3da67 54b9892)
//
// The default commits: c69879a (migrations up to 010: no versions, revisions or key scopes),
// 2c3da67 (up to 021: revisions, scoped keys), 54b9892 (up to 022 with its first tokenizer, CJK
// pairs only, which migration 026 replaces).
//
// Needs TEST_POSTGRES_URL (source /work/dev-env.sh: a server where we may create and drop databases)
// and pg_dump (PG_DUMP, default /usr/lib/postgresql/15/bin/pg_dump). Each commit is checked out into
// a temporary git worktree (UPGRADE_WORKTREES=<dir> keeps and reuses them), `npm ci` runs there under
// nice, and the server runs in `serve` mode (worker on, so events fan out into webhook deliveries).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { seed } from './upgrade-seed.mjs';

const repo = path.resolve(import.meta.dirname, '..');
const commits = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['c69879a', '2c3da67', '54b9892'];
const adminUrl = process.env.TEST_POSTGRES_URL;
const pgDump = process.env.PG_DUMP ?? '/usr/lib/postgresql/15/bin/pg_dump';
if (!adminUrl) throw new Error('TEST_POSTGRES_URL must name a PostgreSQL server (source /work/dev-env.sh)');

const keepRoot = process.env.UPGRADE_WORKTREES;
const root = keepRoot ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sw-upgrade-'));

for (const commit of commits) {
  const tree = await worktree(commit);
  const out = path.join(repo, 'test/fixtures/upgrade', commit);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  await makeSqlite(commit, tree, path.join(out, 'sqlite'));
  await makePostgres(commit, tree, path.join(out, 'postgres'));
  if (!keepRoot) execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: repo });
  console.log(`${commit}: fixtures in ${path.relative(repo, out)}`);
}
if (!keepRoot) fs.rmSync(root, { recursive: true, force: true });

async function worktree(commit) {
  const dir = path.join(root, commit);
  if (!fs.existsSync(dir)) execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: repo, stdio: 'inherit' });
  if (!fs.existsSync(path.join(dir, 'node_modules/.package-lock.json'))) {
    execFileSync('nice', ['-n', '10', 'npm', 'ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}

async function makeSqlite(commit, tree, out) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-upgrade-data-'));
  const manifest = await seedVersion(commit, tree, { DATA_DIR: dataDir });
  // Closing the last connection checkpoints the WAL into the main file and removes it.
  const db = new SQLite(path.join(dataDir, 'sheet-workspace.db'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('vacuum');
  db.close();
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'sheet-workspace.db.gz'), zlib.gzipSync(fs.readFileSync(path.join(dataDir, 'sheet-workspace.db')), { level: 9 }));
  fs.copyFileSync(path.join(dataDir, 'secret.key'), path.join(out, 'secret.key'));
  writeManifest(out, { ...manifest, dialect: 'sqlite' });
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function makePostgres(commit, tree, out) {
  const name = `upg_${commit}_${randomBytes(3).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-upgrade-data-'));
  // A PostgreSQL deployment keeps its webhook-secret key in SECRET_KEY (docs/operations.md); it travels with the dump.
  const secretKey = randomBytes(32).toString('hex');
  try {
    const manifest = await seedVersion(commit, tree, { DATA_DIR: dataDir, DATABASE_URL: url.toString(), SECRET_KEY: secretKey });
    // INSERT statements, not COPY: the test restores the dump through node-postgres, without psql.
    const sqlText = execFileSync(pgDump, ['--no-owner', '--no-privileges', '--inserts', '--dbname', url.toString()], { maxBuffer: 256 * 1024 * 1024 });
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'dump.sql.gz'), zlib.gzipSync(sqlText, { level: 9 }));
    writeManifest(out, { ...manifest, dialect: 'postgres', secret_key: secretKey });
  } finally {
    await adminQuery(`drop database if exists ${name} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function writeManifest(out, manifest) {
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function adminQuery(text) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** Creates the account with that version's CLI, starts its server, seeds it over REST, stops it. */
async function seedVersion(commit, tree, env) {
  const fullEnv = { ...process.env, ...env, BOOTSTRAP_OWNER: '0', LOG_LEVEL: 'warn', RATE_LIMIT_DISABLED: '1' };
  delete fullEnv.REDIS_URL;
  const main = ['--import', 'tsx', 'src/main.ts'];
  const created = JSON.parse(execFileSync('node', [...main, 'users', 'create', '--name', 'fixture-owner', '--plan', 'business', '--json'], { cwd: tree, env: fullEnv }).toString());
  const port = await freePort();
  const server = spawn('nice', ['-n', '10', 'node', ...main, 'serve'], { cwd: tree, env: { ...fullEnv, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((res) => server.once('exit', res));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(base, server);
    const manifest = await seed(base, created.user_id, created.api_key);
    return { commit, made_at: new Date().toISOString(), ...manifest };
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

async function waitForHealth(base, server) {
  const end = Date.now() + 120_000;
  while (Date.now() < end) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not answer /healthz within 120 s');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
