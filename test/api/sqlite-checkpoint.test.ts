import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { createGroupCommit } from '../../src/db/sqlite/group-commit.js';
import { checkpointFully } from '../../src/db/sqlite/sqlite-readers.js';
import type { Db } from '../../src/db/types.js';
import { expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/** A WAL that is started over gets a new salt in its header (bytes 16-23). */
function walSalt(wal: string): string {
  const fd = fs.openSync(wal, 'r');
  try {
    const header = Buffer.alloc(32);
    fs.readSync(fd, header, 0, 32, 0);
    return header.subarray(16, 24).toString('hex');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * SQLite checkpoints run on a thread of their own (src/db/sqlite/sqlite-readers.ts), not inside a request's
 * commit: the main connection only checkpoints past ~80 MB of WAL. So after a burst of writes far
 * below that, the database file itself must still catch up with the WAL within a few seconds.
 */
describe('background checkpoints [sqlite]', () => {
  let key: string;
  const { s } = useServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1' } });
  before(async () => {
    key = (await s.user('business')).key;
  });

  it('copies committed writes from the WAL into the database file without a request paying for it', async () => {
    const file = path.join(s.dataDir, 'sheet-workspace.db');
    await sleep(1500); // a first checkpoint of the start-up writes
    const before = fs.statSync(file).size;
    const body = `<p>${'checkpoint me '.repeat(300)}</p>`;
    await Promise.all(Array.from({ length: 60 }, (_, i) => expect200(s, key, 'POST', '/v1/sheets', { title: `wal ${i}`, content: { col1: body } })));
    assert.ok(fs.statSync(`${file}-wal`).size > 100_000, 'the writes went to the WAL');
    let grown = false;
    for (let i = 0; i < 50 && !grown; i++) {
      await sleep(100);
      grown = fs.statSync(file).size > before + 100_000;
    }
    assert.ok(grown, `the database file grew by ${fs.statSync(file).size - before} bytes`);
  });

  it('starts the WAL over while writes never stop, instead of letting it grow to the main connection limit', async () => {
    // Without a checkpoint that leaves no page behind, steady writes never let the WAL start over below
    // ~80 MB. (The exact property is checked on checkpointFully itself below; this is the wiring.)
    const wal = `${path.join(s.dataDir, 'sheet-workspace.db')}-wal`;
    const salt = () => walSalt(wal);
    // Writes go on until the WAL has been started over twice (a few seconds here; one restart can
    // also happen without the fix, before the writes saturate). The deadline only bounds a failure,
    // so a slow or busy machine takes longer rather than failing.
    const body = `<p>${'steady writes '.repeat(200)}</p>`;
    const salts = new Set([salt()]);
    const deadline = Date.now() + 20_000;
    let written = 0;
    const client = async () => {
      while (salts.size < 3 && Date.now() < deadline) {
        await expect200(s, key, 'POST', '/v1/sheets', { title: `steady ${written++}`, content: { col1: body } });
        salts.add(salt());
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    assert.ok(salts.size >= 3, `the WAL was started over ${salts.size - 1} times during ${written} writes in 20 s`);
  });
});

/**
 * checkpointFully on a real file, its checkpoint on another thread like the service's reader pool,
 * while 16 writers commit through the group commit without pause: when it returns, the WAL must
 * hold nothing the file lacks, so the next write starts it over. A checkpoint that copies while
 * writes go on always leaves the last ones behind (checked: without the final held pass every round
 * fails).
 */
describe('checkpointFully under steady writes [sqlite]', () => {
  let dir: string;
  let db: Db;
  let worker: Worker;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-checkpoint-'));
    file = path.join(dir, 'c.db');
    const main = new SQLite(file);
    main.pragma('journal_mode = WAL');
    main.pragma('wal_autocheckpoint = 0'); // only the checkpoints under test
    main.exec('create table rows (id integer primary key, body text)');
    db = new Kysely<any>({ dialect: new SqliteDialect({ database: main }) }) as Db;
    worker = new Worker(
      `const SQLite = require('better-sqlite3');
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new SQLite(workerData, { fileMustExist: true });
       parentPort.on('message', () => parentPort.postMessage(db.pragma('wal_checkpoint(PASSIVE)')));`,
      { eval: true, workerData: file },
    );
  });
  after(async () => {
    await worker.terminate();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves nothing in the WAL for the next write, so the WAL starts over, round after round', async () => {
    const run = createGroupCommit(db, () => {});
    const write = () => run((trx) => sql`insert into rows (body) values (${'w'.repeat(2000)})`.execute(trx));
    const checkpoint = () => new Promise((resolve) => (worker.once('message', resolve), worker.postMessage('go')));
    const walChangedTime = async () => fs.statSync(`${file}-wal`).mtimeMs;
    let writing = true;
    const writers = Array.from({ length: 16 }, async () => {
      while (writing) await write();
    });
    try {
      await sleep(50);
      const started = [];
      for (let round = 0; round < 5; round++) {
        const before = walSalt(`${file}-wal`);
        await checkpointFully(db, checkpoint, walChangedTime, await walChangedTime());
        await write();
        started.push(walSalt(`${file}-wal`) !== before);
        await sleep(20);
      }
      assert.deepEqual(started, [true, true, true, true, true]);
    } finally {
      writing = false;
      await Promise.all(writers);
    }
  });
});
