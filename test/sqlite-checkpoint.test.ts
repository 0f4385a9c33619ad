import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect200, startServer, type TestServer } from './helpers.js';

/**
 * SQLite checkpoints run on the reader thread (src/db/sqlite-readers.ts), not inside a request's
 * commit: the main connection only checkpoints past ~80 MB of WAL. So after a burst of writes far
 * below that, the database file itself must still catch up with the WAL within a few seconds.
 */
describe('background checkpoints [sqlite]', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1' } });
    key = (await s.user('business')).key;
  });
  after(() => s.close());

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
    // A WAL that is started over gets a new salt in its header (bytes 16-23). Without a checkpoint
    // that leaves no page behind, steady writes never let that happen below ~80 MB of WAL.
    const wal = `${path.join(s.dataDir, 'sheet-workspace.db')}-wal`;
    const salt = () => {
      const fd = fs.openSync(wal, 'r');
      try {
        const header = Buffer.alloc(32);
        fs.readSync(fd, header, 0, 32, 0);
        return header.subarray(16, 24).toString('hex');
      } finally {
        fs.closeSync(fd);
      }
    };
    const body = `<p>${'steady writes '.repeat(200)}</p>`;
    const salts = new Set([salt()]);
    const until = Date.now() + 3500;
    let written = 0;
    const client = async () => {
      while (Date.now() < until) {
        await expect200(s, key, 'POST', '/v1/sheets', { title: `steady ${written++}`, content: { col1: body } });
        salts.add(salt());
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    assert.ok(salts.size >= 3, `the WAL was started over ${salts.size - 1} times during ${written} writes`);
  });
});
