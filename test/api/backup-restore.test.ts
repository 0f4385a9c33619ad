import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { startServer } from '../helpers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sw-backup-test-'));

async function cli(args: string[], env: Record<string, string> = {}) {
  const clean: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  if (!env.DATABASE_URL) delete clean.DATABASE_URL;
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, env: clean });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err: any) {
    return { code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string };
  }
}

/** Everything a directory holds, with each file's bytes: "changes nothing" compares two of these. */
const snapshotDir = (dir: string) => (fs.existsSync(dir) ? Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f)).toString('base64')])) : null);

describe('backup and restore (SQLite)', () => {
  it('a backup taken under many writes restores whole, with every write acknowledged before it began', async (t) => {
    // Plan limits would turn the writers' burst into 429s; they are not what this test is about.
    const s = await startServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1' } });
    const dir = tmp();
    const file = path.join(dir, 'snapshot.swb');
    try {
      const { key } = await s.user('pro');
      const hook = await s.req('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.com/x', events: ['*'] } });
      assert.equal(hook.status, 200);
      const acked: string[] = [];
      let writing = true;
      const writer = async (w: number) => {
        for (let i = 0; writing; i++) {
          const r = await s.req('POST', '/v1/sheets', { key, body: { title: `w${w} #${i}`, content: { col1: `<p>議事録 ${w}-${i} ${'x'.repeat(500)}</p>` } } });
          assert.equal(r.status, 200, JSON.stringify(r.body));
          acked.push(r.body.id);
        }
      };
      const writers = Array.from({ length: 8 }, (_, w) => writer(w));
      const failed = Promise.race(writers).then(() => assert.fail('a writer stopped early'));
      while (acked.length < 200) await Promise.race([failed, new Promise((r) => setTimeout(r, 10))]);
      const ackedBefore = [...acked];
      const backup = await cli(['backup', file], { DATA_DIR: s.dataDir });
      const ackedDuring = acked.length - ackedBefore.length;
      writing = false;
      await Promise.all(writers);
      assert.equal(backup.code, 0, backup.stderr);
      assert.ok(ackedDuring > 0, 'writes went on while the backup ran');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);

      const restored = path.join(dir, 'restored');
      const r = await cli(['restore', file, '--data-dir', restored]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.statSync(restored).mode & 0o777, 0o700);
      assert.deepEqual(fs.readdirSync(restored).sort(), ['secret.key', 'sheet-workspace.db']);
      assert.equal(fs.readFileSync(path.join(restored, 'secret.key'), 'utf8'), fs.readFileSync(path.join(s.dataDir, 'secret.key'), 'utf8'));
      const db = new SQLite(path.join(restored, 'sheet-workspace.db'), { readonly: true });
      try {
        assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
        const ids = new Set(db.prepare('select id from sheets').pluck().all() as string[]);
        const missing = ackedBefore.filter((id) => !ids.has(id));
        assert.deepEqual(missing, [], `${missing.length} of ${ackedBefore.length} acknowledged writes are missing`);
        assert.ok(ids.size <= acked.length);
        t.diagnostic(`${ackedBefore.length} writes acknowledged before the backup, ${ackedDuring} while it ran; the restored database holds ${ids.size}`);
      } finally {
        db.close();
      }

      // The restored directory serves: the key authenticates, the sheets and the webhook are there.
      const back = await startServer('sqlite', { dataDir: restored });
      try {
        const got = await back.req('GET', `/v1/sheets/${ackedBefore[0]}`, { key });
        assert.equal(got.status, 200);
        const hooks = await back.req('GET', '/v1/webhooks', { key });
        assert.deepEqual(
          hooks.body.webhooks.map((h: { id: string }) => h.id),
          [hook.body.webhook.id],
        );
        const found = await back.req('GET', `/v1/sheets?q=${encodeURIComponent('議事録')}&limit=1`, { key });
        assert.ok(found.body.total >= ackedBefore.length);
      } finally {
        await back.close();
      }
    } finally {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses corrupt, cut and foreign files and a non-empty directory, changing nothing; --force replaces', async () => {
    const s = await startServer('sqlite');
    const dir = tmp();
    try {
      await s.user('pro');
      const good = path.join(dir, 'good.swb');
      assert.equal((await cli(['backup', good], { DATA_DIR: s.dataDir })).code, 0);
      const again = await cli(['backup', good], { DATA_DIR: s.dataDir });
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /exists; choose another name or pass --force/);

      const bytes = fs.readFileSync(good);
      const flipped = Buffer.from(bytes);
      flipped[flipped.length - 5000] ^= 0xff;
      const cases: [string, Buffer | string, RegExp][] = [
        ['flipped.swb', flipped, /checksum does not match/],
        ['cut.swb', bytes.subarray(0, bytes.length - 4096), /damaged: it holds \d+ bytes of database where its header says/],
        ['foreign.swb', fs.readFileSync(path.join(root, 'package.json')), /is not a Sheet Workspace backup/],
        ['raw.db', fs.readFileSync(path.join(s.dataDir, 'sheet-workspace.db')), /is not a Sheet Workspace backup/],
        ['header.swb', 'SHEET-WORKSPACE-BACKUP 1\n{"format":"sheet-workspace-backup"}\n', /lacks the database size/],
      ];
      for (const [name, content, message] of cases) {
        fs.writeFileSync(path.join(dir, name), content);
        const target = path.join(dir, `into-${name}`);
        const r = await cli(['restore', path.join(dir, name), '--data-dir', target]);
        assert.notEqual(r.code, 0, name);
        assert.match(r.stderr, message, name);
        assert.equal(fs.existsSync(target), false, `${name}: nothing created`);
      }

      // A non-empty directory: refused without --force, untouched; with --force its database and key are replaced, stale WAL gone.
      const busy = path.join(dir, 'busy');
      fs.mkdirSync(busy);
      for (const [f, text] of [
        ['sheet-workspace.db', 'old'],
        ['sheet-workspace.db-wal', 'stale'],
        ['secret.key', 'old-key'],
        ['notes.txt', 'mine'],
      ])
        fs.writeFileSync(path.join(busy, f), text);
      const before = snapshotDir(busy);
      const refused = await cli(['restore', good, '--data-dir', busy]);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /is not empty .*pass --force/);
      assert.deepEqual(snapshotDir(busy), before);
      const corruptForced = await cli(['restore', path.join(dir, 'flipped.swb'), '--data-dir', busy, '--force']);
      assert.notEqual(corruptForced.code, 0);
      assert.deepEqual(snapshotDir(busy), before, 'a bad file changes nothing even with --force');

      const forced = await cli(['restore', good, '--data-dir', busy, '--force']);
      assert.equal(forced.code, 0, forced.stderr);
      assert.deepEqual(fs.readdirSync(busy).sort(), ['notes.txt', 'secret.key', 'sheet-workspace.db']);
      assert.equal(fs.readFileSync(path.join(busy, 'secret.key'), 'utf8'), fs.readFileSync(path.join(s.dataDir, 'secret.key'), 'utf8'));
      const db = new SQLite(path.join(busy, 'sheet-workspace.db'), { readonly: true });
      assert.equal(db.prepare('select count(*) from users').pluck().get(), 1);
      db.close();
    } finally {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('backup on PostgreSQL points to pg_dump; a missing database is named', async () => {
    const dir = tmp();
    try {
      const pgRun = await cli(['backup', path.join(dir, 'x.swb')], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: dir });
      assert.notEqual(pgRun.code, 0);
      assert.match(pgRun.stderr, /DATABASE_URL names PostgreSQL: use pg_dump/);
      const empty = await cli(['backup', path.join(dir, 'x.swb')], { DATA_DIR: path.join(dir, 'nothing') });
      assert.notEqual(empty.code, 0);
      assert.match(empty.stderr, /no database at .*sheet-workspace\.db/);
      assert.deepEqual(fs.readdirSync(dir), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
