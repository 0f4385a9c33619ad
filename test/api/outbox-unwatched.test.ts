import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../server-fixture.js';
import { startReceiver, webhookEnv } from '../webhooks-helpers.js';

/**
 * PostgreSQL stores an event that no enabled webhook of its owner subscribes to as already dispatched
 * (migration 034), so the webhook worker's fan-out never reads or rewrites it. No worker runs here:
 * what is dispatched was decided by the INSERT alone.
 */
describe('events no webhook subscribes to are stored dispatched [postgres]', { skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set' }, () => {
  const { s, users } = useServer('postgres', { env: webhookEnv(), users: { nohooks: 'pro', updates: 'pro', all: 'pro', off: 'pro' } });

  const eventsOf = (workspaceId: string) => s.c.db.selectFrom('outbox').select(['event', 'created_at', 'dispatched_at']).where('workspace_id', '=', workspaceId).orderBy('id').execute();
  const hook = async (key: string, events: string[]) => {
    const r = await s.req('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.invalid/x', events } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.webhook;
  };
  const createAndRename = async (key: string) => {
    const sheet = await s.req('POST', '/v1/sheets', { key, body: { title: 'a' } });
    assert.equal(sheet.status, 200);
    assert.equal((await s.req('PUT', `/v1/sheets/${sheet.body.id}`, { key, body: { title: 'b' } })).status, 200);
  };

  it('marks the events of an owner without webhooks dispatched at their creation time', async () => {
    await hook(users.all.key, ['*']); // another owner's webhook changes nothing here
    await createAndRename(users.nohooks.key);
    const rows = await eventsOf(users.nohooks.personalWorkspace);
    assert.deepEqual(
      rows.map((r) => r.event),
      ['sheet.created', 'sheet.updated'],
    );
    for (const r of rows) assert.equal(r.dispatched_at, r.created_at);
  });

  it('leaves for the fan-out exactly the events an enabled webhook subscribes to, by name or "*"', async () => {
    await hook(users.updates.key, ['sheet.updated', 'todos.synced']);
    await createAndRename(users.updates.key);
    assert.deepEqual(
      (await eventsOf(users.updates.personalWorkspace)).map((r) => [r.event, r.dispatched_at === null]),
      [
        ['sheet.created', false],
        ['sheet.updated', true],
      ],
    );

    await createAndRename(users.all.key);
    assert.deepEqual(
      (await eventsOf(users.all.personalWorkspace)).map((r) => [r.event, r.dispatched_at === null]),
      [
        ['sheet.created', true],
        ['sheet.updated', true],
      ],
    );
  });

  it('does not wait for a disabled webhook', async () => {
    const h = await hook(users.off.key, ['*']);
    await s.c.db.updateTable('webhooks').set({ status: 'disabled' }).where('id', '=', h.id).execute();
    await createAndRename(users.off.key);
    assert.deepEqual(
      (await eventsOf(users.off.personalWorkspace)).map((r) => r.dispatched_at === null),
      [false, false],
    );
  });
});

/** End to end with the worker: the subscribed event is still delivered, the other never becomes a delivery. */
describe('a webhook still gets what it subscribes to [postgres]', { skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set' }, () => {
  const { s, users } = useServer('postgres', { env: webhookEnv(), worker: true, users: { alice: 'pro' } });

  it('delivers sheet.updated and makes no delivery of sheet.created', async () => {
    const rcv = await startReceiver();
    try {
      await s.req('POST', '/v1/webhooks', { key: users.alice.key, body: { url: rcv.url, events: ['sheet.updated'] } });
      const sheet = (await s.req('POST', '/v1/sheets', { key: users.alice.key, body: { title: 'a' } })).body;
      await s.req('PUT', `/v1/sheets/${sheet.id}`, { key: users.alice.key, body: { title: 'b' } });
      const [got] = await rcv.waitFor(1);
      assert.equal(got.body.event, 'sheet.updated');
      await s.worker!.idle();
      assert.deepEqual(
        (await s.c.db.selectFrom('deliveries').select('event').execute()).map((d) => d.event),
        ['sheet.updated'],
      );
      assert.equal((await s.c.db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).execute()).length, 0);
    } finally {
      await rcv.close();
    }
  });
});
