import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { createPgDatabase, dialects } from '../helpers.js';
import { startProcess, type ServerProcess } from '../processes.js';
import { startReceiver, webhookEnv } from '../webhooks-helpers.js';

const EVENTS = 40;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of dialects()) {
  describe(`webhook backlog survives SIGKILL of the server process [${dialect}]`, () => {
    it(`kill -9 mid-backlog, start a new process on the same database: all ${EVENTS} events arrive, every delivery ends delivered`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-restart-'));
      const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const dbEnv = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
      // The test's own container migrates the database and creates the account, like the CLI would.
      const admin = await createContainer(loadConfig({ ...dbEnv, LOG_LEVEL: 'silent', BOOTSTRAP_OWNER: '0' }));
      const rcv = await startReceiver();
      rcv.respond = () => ({ delayMs: 60 });
      // A short lease so the dead process's claims run out quickly; 2 in flight at 60 ms each keeps a backlog for over a second.
      const env = { ...dbEnv, ...webhookEnv({ WEBHOOK_LEASE_MS: '1500', WEBHOOK_MAX_IN_FLIGHT: '2' }) };
      let a: ServerProcess | undefined;
      let b: ServerProcess | undefined;
      try {
        const u = await admin.accounts.create({ name: 'restart', plan: 'business' });
        const first = (a = await startProcess(env));
        const hook = await first.req('POST', '/v1/webhooks', { key: u.api_key, body: { url: rcv.url, events: ['sheet.created'] } });
        assert.equal(hook.status, 200, JSON.stringify(hook.body));
        for (let i = 0; i < EVENTS; i++) {
          const r = await first.req('POST', '/v1/sheets', { key: u.api_key, body: { title: `b${i}` } });
          assert.equal(r.status, 200);
        }
        await rcv.waitFor(4);
        assert.equal(await first.stop('SIGKILL'), null, 'killed, not exited');
        const ids = () => new Set(rcv.received.map((r) => r.headers['x-service-delivery'] as string));
        const atKill = ids().size;
        assert.ok(atKill < EVENTS, `killed mid-backlog (${atKill} of ${EVENTS} had arrived)`);

        b = await startProcess(env);
        await until(`${EVENTS} distinct deliveries`, () => ids().size === EVENTS, 20_000);
        const rows = () => admin.db.selectFrom('deliveries').select(['id', 'status', 'attempt_count']).execute();
        await until('every delivery recorded as delivered', async () => (await rows()).every((r) => r.status === 'delivered'), 10_000);

        const final = await rows();
        assert.equal(final.length, EVENTS, 'one delivery per event');
        assert.deepEqual([...ids()].sort(), final.map((r) => r.id).sort(), 'the receiver saw every delivery id');
        assert.ok(final.every((r) => Number(r.attempt_count) >= 1));
        const names = new Set(rcv.received.map((r) => r.body.data.name));
        assert.deepEqual([...names].sort(), Array.from({ length: EVENTS }, (_, i) => `b${i}`).sort());
      } finally {
        await b?.stop();
        await a?.stop('SIGKILL');
        await admin.close();
        await pg?.drop();
        await rcv.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
