import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import { createPgDatabase } from './helpers.js';
import { startProcess, type ServerProcess } from './processes.js';
import { openStream } from './sse-helpers.js';

/**
 * Two real server processes on one PostgreSQL database. The stream's own poll is set to ten minutes, so an
 * event written through the other process can only arrive by LISTEN/NOTIFY.
 */
const pgUrl = process.env.TEST_POSTGRES_URL;
describe('event stream across two processes on PostgreSQL', { skip: pgUrl ? false : 'needs TEST_POSTGRES_URL' }, () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let admin: Container;
  let procs: ServerProcess[] = [];
  before(async () => {
    pg = await createPgDatabase();
    admin = await createContainer(loadConfig({ DATABASE_URL: pg.url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sw-admin-')), LOG_LEVEL: 'silent' }));
    const env = { DATABASE_URL: pg.url, RATE_LIMIT_DISABLED: '1', WEBHOOK_WORKER: '0', EVENT_STREAM_POLL_MS: '600000' };
    procs = await Promise.all([startProcess(env), startProcess(env)]);
  });
  after(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await admin?.close();
    await pg?.drop();
  });

  it("a stream on one process receives the other process's writes through NOTIFY, not the poll", { timeout: 20_000 }, async () => {
    const u = await admin.accounts.create({ name: `u-${randomBytes(3).toString('hex')}`, plan: 'pro' });
    const stream = await openStream(`${procs[1].url}/v1/events/stream?events=sheet.created,sheet.updated`, { authorization: `Bearer ${u.api_key}` });
    try {
      assert.equal(stream.res.status, 200);
      const created = await procs[0].req('POST', '/v1/sheets', { key: u.api_key, body: { title: 'from process A' } });
      assert.equal(created.status, 200);
      const [first] = await stream.waitFor(1);
      assert.equal(first.event, 'sheet.created');
      assert.equal(first.data.data.sheet_id, created.body.id);
      const updated = await procs[0].req('PUT', `/v1/sheets/${created.body.id}`, { key: u.api_key, body: { content: { col1: '<p>again</p>' } } });
      assert.equal(updated.status, 200);
      const [, second] = await stream.waitFor(2);
      assert.equal(second.event, 'sheet.updated');
      assert.deepEqual(second.data.data.columns, ['col1']);
    } finally {
      await stream.close();
    }
  });
});
