import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Res, type TestServer } from '../helpers.js';

/**
 * A full disk under SQLite (issue 53): the data directory on a small tmpfs fills up. A write then
 * answers 507 insufficient_storage naming the cause (not a 500 saying "cannot rollback"), /readyz says
 * not ready and why, nothing acknowledged is lost, and once the tmpfs grows writes go on without a
 * restart. Mounting needs root (CI runs as root); elsewhere the test is skipped.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-full-'));
const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'pipe' });
function mountSmall(): string | undefined {
  try {
    mount('-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', dir);
    return undefined;
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    return `skipped: cannot mount a tmpfs here (needs root, as in CI): ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
  }
}
const skip = mountSmall();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SQLite on a full disk', { skip: skip ?? false, timeout: 60_000 }, () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startServer('sqlite', { dataDir: dir });
    key = (await s.user('business')).key;
  });
  after(async () => {
    await s?.close();
    try {
      execFileSync('umount', [dir]);
    } catch {
      /* not mounted */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes answer 507 naming the cause, /readyz is not ready, nothing is lost, and writes resume when space is back', async () => {
    // Text that repeats: the sheets take the space, the search index little.
    const content = { col1: `<p>${'the quick brown fox jumps over the lazy dog '.repeat(4000)}</p>` };
    const acknowledged: string[] = [];
    let full: Res | undefined;
    for (let i = 0; i < 200 && !full; i++) {
      const r = await s.req('POST', '/v1/sheets', { key, body: { title: `filler ${i}`, content } });
      if (r.status === 200) acknowledged.push(r.body.id);
      else full = r;
    }
    assert.ok(full, 'the disk filled up');
    assert.equal(full.status, 507, JSON.stringify(full.body));
    assert.equal(full.body.code, 'insufficient_storage');
    assert.match(full.body.error, /disk is full \(database or disk is full/);
    assert.ok(acknowledged.length > 3);

    const ready = await s.req('GET', '/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.body.checks.database, 'full');
    assert.match(ready.body.error, /disk is full/);

    // Reads go on; every acknowledged write is there, and the refused one is not.
    for (const id of acknowledged) assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key })).status, 200);
    const stored = await s.c.db.selectFrom('sheets').select('id').where('title', 'like', 'filler %').execute();
    assert.deepEqual(stored.map((r) => r.id).sort(), [...acknowledged].sort());

    // More room: ready again and writing, without a restart.
    mount('-o', 'remount,size=64m', dir);
    const grownAt = performance.now();
    while ((await s.req('GET', '/readyz')).status !== 200) {
      assert.ok(performance.now() - grownAt < 5000, 'ready again once the disk has room');
      await sleep(50);
    }
    const again = await s.req('POST', '/v1/sheets', { key, body: { title: 'after', content } });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal((await s.req('GET', `/v1/sheets/${again.body.id}`, { key })).status, 200);
  });
});
