import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createPgDatabase, dialects } from '../helpers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

async function cli(args: string[], env: Record<string, string>) {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err: any) {
    return { code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string };
  }
}

describe('config', () => {
  it('names every bad value in one message', () => {
    assert.throws(
      () => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', BOOTSTRAP_OWNER: 'maybe', WEBHOOK_RETRY_SCHEDULE: 'soon', WEBHOOK_MAX_IN_FLIGHT: '0', SEARCH_CONCURRENCY: '0' }),
      (err: Error) => {
        assert.ok(err instanceof ConfigError);
        for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'BOOTSTRAP_OWNER', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_MAX_IN_FLIGHT', 'SEARCH_CONCURRENCY']) assert.match(err.message, new RegExp(name));
        return true;
      },
    );
  });
  it('has the documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8787);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.bootstrapOwner, true);
    assert.deepEqual(c.webhooks.retrySchedule, [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000]);
    assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s,2s,500ms' }).webhooks.retrySchedule, [1000, 2000, 500]);
    assert.equal(c.webhooks.maxInFlight, 16);
    assert.equal(loadConfig({ WEBHOOK_MAX_IN_FLIGHT: '4' }).webhooks.maxInFlight, 4);
    assert.equal(c.searchConcurrency, Math.max(1, Math.min(4, os.availableParallelism() - 1)));
    assert.equal(loadConfig({ SEARCH_CONCURRENCY: '3' }).searchConcurrency, 3);
  });
  it('the server refuses to start on a bad value, with the message', async () => {
    const r = await cli(['serve'], { PORT: '99999' });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /PORT/);
  });
});

for (const dialect of dialects()) {
  describe(`users CLI [${dialect}]`, () => {
    it('creates, lists and changes plans; the printed key works', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-cli-'));
      const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const env = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
      try {
        const created = await cli(['users', 'create', '--name', 'Ada', '--plan', 'pro', '--json'], env);
        assert.equal(created.code, 0, created.stderr);
        const out = JSON.parse(created.stdout);
        assert.deepEqual(Object.keys(out).sort(), ['api_key', 'user_id']);
        assert.match(out.user_id, /^usr_/);
        assert.match(out.api_key, /^sk_/);

        const listed = JSON.parse((await cli(['users', 'list', '--json'], env)).stdout);
        assert.deepEqual(
          listed.map((u: any) => [u.user_id, u.name, u.plan]),
          [[out.user_id, 'Ada', 'pro']],
        );

        const changed = await cli(['users', 'set-plan', out.user_id, 'business', '--json'], env);
        assert.deepEqual(JSON.parse(changed.stdout), { user_id: out.user_id, plan: 'business' });

        const bad = await cli(['users', 'set-plan', out.user_id, 'gold'], env);
        assert.equal(bad.code, 2);
        assert.match(bad.stderr, /free, pro, business/);
        const missing = await cli(['users', 'set-plan', 'usr_nope', 'free'], env);
        assert.equal(missing.code, 2);
        assert.match(missing.stderr, /not found/);
      } finally {
        await pg?.drop();
      }
    });

    it('the first start creates a business owner and prints its key once', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-boot-'));
      const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...(pg ? { DATABASE_URL: pg.url } : {}) };
      const start = async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: root, env });
        let stdout = '';
        child.stdout.on('data', (d) => (stdout += d));
        const deadline = Date.now() + 60_000;
        while (!/Sheet Workspace is up/.test(stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 300));
        child.kill('SIGTERM');
        await new Promise((r) => child.on('exit', r));
        return stdout;
      };
      try {
        const first = await start();
        assert.match(first, /sk_[A-Za-z0-9_-]{43}/);
        const second = await start();
        assert.doesNotMatch(second, /sk_/);
        const listed = JSON.parse((await cli(['users', 'list', '--json'], { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) })).stdout);
        assert.deepEqual(
          listed.map((u: any) => u.plan),
          ['business'],
        );
      } finally {
        await pg?.drop();
      }
    });
  });
}
