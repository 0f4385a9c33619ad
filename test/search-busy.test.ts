import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers.js';

/**
 * SQLite searches run on a reader thread; one that would wait longer than SEARCH_MAX_WAIT_MS behind
 * the searches already queued is refused at once (503 `unavailable`, Retry-After) instead of leaving
 * the client hanging. Read per call, so this file sets it between cases.
 */
describe('search queue bound [sqlite]', () => {
  let s: TestServer;
  let key: string;
  const SHEETS = 400;

  before(async () => {
    s = await startServer('sqlite', { env: { RATE_LIMIT_DISABLED: '1' } });
    key = (await s.user('business')).key;
    for (let i = 0; i < SHEETS; i += 40) {
      await Promise.all(
        Array.from({ length: 40 }, (_, j) => s.req('POST', '/v1/sheets', { key, body: { title: `note ${i + j}`, content: { col1: `<p>${'the migration plan '.repeat(40)}</p>` } } })),
      );
    }
  });
  after(() => {
    delete process.env.SEARCH_MAX_WAIT_MS;
    return s.close();
  });

  const burst = (n: number) => Promise.all(Array.from({ length: n }, () => s.req('GET', '/v1/sheets?q=migration&limit=5', { key })));

  it('answers every search of a burst when the queue stays under the bound', async () => {
    delete process.env.SEARCH_MAX_WAIT_MS; // default: 2 s
    const all = await burst(12);
    assert.deepEqual(all.map((r) => r.status), Array(12).fill(200));
    for (const r of all) assert.equal(r.body.total, SHEETS);
  });

  it('refuses at once, with 503 and Retry-After, the searches that would wait past the bound', async () => {
    process.env.SEARCH_MAX_WAIT_MS = '0';
    assert.equal((await s.req('GET', '/v1/sheets?q=migration&limit=5', { key })).status, 200, 'alone, nothing is ahead of it');
    let refused: Awaited<ReturnType<typeof burst>>[number] | undefined;
    for (let attempt = 0; attempt < 5 && !refused; attempt++) {
      const all = await burst(12);
      for (const r of all) {
        assert.ok(r.status === 200 || r.status === 503, `status ${r.status}`);
        if (r.status === 200) assert.equal(r.body.total, SHEETS);
      }
      refused = all.find((r) => r.status === 503);
    }
    assert.ok(refused, 'a search sent while others ran was refused');
    assert.equal(refused.body.code, 'unavailable');
    assert.match(refused.body.error, /busy/);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    // The queue drains: the next search alone is answered.
    assert.equal((await s.req('GET', '/v1/sheets?q=migration&limit=5', { key })).status, 200);
  });
});
