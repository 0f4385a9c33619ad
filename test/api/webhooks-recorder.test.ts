import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, startServer } from '../helpers.js';
import { webhookEnv } from '../webhooks-helpers.js';

/**
 * Attempt results that finish while the recorder writes are recorded together: runs of successes in a few
 * statements (recordDelivered), failures alone, in order. The outcome must be the one of recording each in turn,
 * including a success whose claim was lost meanwhile (only its attempt counts) and a failure between successes.
 */
for (const dialect of dialects()) {
  describe(`webhook attempt recorder [${dialect}]`, () => {
    it('twelve results at once: each delivery gets one attempt row and the transition recording it alone would give', async () => {
      const s = await startServer(dialect, { env: webhookEnv() });
      try {
        const u = await s.user('business');
        const hook = (await s.req('POST', '/v1/webhooks', { key: u.key, body: { url: 'https://127.0.0.1:9/hook', events: ['sheet.created'] } })).body.webhook;
        await s.c.tx(async (trx) => {
          for (let i = 0; i < 12; i++) await s.c.outbox.emit(trx, u.personalWorkspace, 'sheet.created', { sheet_id: `sht_${i}`, name: `r${i}`, created_at: new Date().toISOString() }, u.userId);
        });
        const queue = s.c.webhookDelivery.queue;
        await queue.fanOut();
        const { claimed } = await queue.claim({ max: 12, exclude: [], slots: () => 12, workerId: 'test' });
        assert.equal(claimed.length, 12);
        const stolen = claimed[3];
        const failing = claimed[6];
        // Another worker re-leased this one meanwhile (its lease ran out): its result may count, not move it.
        await s.c.db.updateTable('deliveries').set({ claimed_by: 'other:run' }).where('id', '=', stolen.id).execute();

        const ok = { ok: true, statusCode: 200, durationMs: 5, error: null, responseBody: 'fine' };
        const bad = { ok: false, statusCode: 500, durationMs: 7, error: 'HTTP 500', responseBody: 'no' };
        // All at once: the first is written alone, the other eleven wait and go in one transaction.
        const outcomes = await Promise.all(claimed.map((d) => queue.record(d, d === failing ? bad : ok)));
        assert.deepEqual(
          outcomes.map((o) => o.disabled),
          claimed.map(() => false),
        );

        const rows = await s.c.db.selectFrom('deliveries').selectAll().where('webhook_id', '=', hook.id).execute();
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const d of claimed) {
          const row = byId.get(d.id)!;
          assert.equal(Number(row.attempt_count), 1, `${d.id}: one attempt counted`);
          const attempts = await s.c.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', d.id).execute();
          assert.equal(attempts.length, 1, `${d.id}: one attempt row`);
          if (d === stolen) {
            assert.deepEqual([row.status, row.claimed_by], ['pending', 'other:run'], 'a lost claim is not moved');
            assert.notEqual(row.claimed_until, null);
          } else if (d === failing) {
            assert.deepEqual([row.status, Number(row.retry_step), row.claimed_until], ['pending', 1, null]);
            assert.ok(row.next_attempt_at! > row.updated_at, 'the retry is scheduled later');
            assert.deepEqual([attempts[0].status_code, attempts[0].error], [500, 'HTTP 500']);
          } else {
            assert.deepEqual([row.status, row.claimed_until, row.next_attempt_at], ['delivered', null, null], d.id);
            assert.ok(row.updated_at > d.updated_at, `${d.id}: updated_at moves to the time of its result`);
            assert.deepEqual([attempts[0].status_code, attempts[0].response_body, Number(attempts[0].duration_ms)], [200, 'fine', 5]);
          }
        }
      } finally {
        await s.close();
      }
    });
  });
}
