import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { envelope, outboxEnvelope } from '../../src/events/envelope.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { startReceiver, webhookEnv } from '../webhooks-helpers.js';

describe('event envelope', () => {
  it('is {event, timestamp, data} in that key order, with the id first only when given', () => {
    const e = { event: 'sheet.created', timestamp: '2026-01-02T03:04:05.678Z', data: { sheet_id: 'sht_1', name: 'Ü ✓ 日本' } };
    assert.equal(envelope(e), '{"event":"sheet.created","timestamp":"2026-01-02T03:04:05.678Z","data":{"sheet_id":"sht_1","name":"Ü ✓ 日本"}}');
    assert.equal(envelope({ id: 'evt_1', ...e }), '{"id":"evt_1","event":"sheet.created","timestamp":"2026-01-02T03:04:05.678Z","data":{"sheet_id":"sht_1","name":"Ü ✓ 日本"}}');
  });

  it('of an outbox row keeps the stored data as is (its own key order, numbers, escapes)', () => {
    const row = { id: 'evt_2', event: 'todo.deleted', created_at: '2026-01-02T03:04:05.678Z', data: '{"z":1,"a":[1.5,null,"\\u2028"],"m":{"b":true}}' };
    assert.equal(outboxEnvelope(row, { withId: false }), `{"event":"todo.deleted","timestamp":"2026-01-02T03:04:05.678Z","data":${JSON.stringify(JSON.parse(row.data))}}`);
    assert.equal(outboxEnvelope(row, { withId: true }), `{"id":"evt_2",${outboxEnvelope(row, { withId: false }).slice(1)}`);
  });
});

/** The `data:` text of the first event named `event` on a raw SSE connection, byte for byte. */
function firstDataLine(url: string, key: string, event: string) {
  const req = http.get(url, { headers: { authorization: `Bearer ${key}` }, agent: false });
  const line = new Promise<{ id: string; data: string }>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        for (const block of buf.split('\n\n').slice(0, -1)) {
          const lines = block.split('\n');
          if (!lines.includes(`event: ${event}`)) continue;
          const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))!.slice(name.length + 2);
          resolve({ id: field('id'), data: field('data') });
        }
      });
    });
  });
  return { line, close: () => req.destroy() };
}

for (const dialect of dialects()) {
  describe(`one envelope for webhooks and the event stream [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { env: webhookEnv(), worker: true, users: { alice: 'pro' } });

    it("the stream's data line is the signed webhook body with the event id first, byte for byte", { timeout: 30_000 }, async () => {
      const rcv = await startReceiver();
      try {
        const hook = await s.req('POST', '/v1/webhooks', { key: users.alice.key, body: { url: rcv.url, events: ['sheet.created'] } });
        assert.equal(hook.status, 200, JSON.stringify(hook.body));
        const sse = firstDataLine(`${s.url}/v1/events/stream`, users.alice.key, 'sheet.created');
        try {
          await new Promise((r) => setTimeout(r, 200)); // the stream is open before the write
          const made = await s.req('POST', '/v1/sheets', { key: users.alice.key, body: { title: 'Ü "quoted" \u2028 日本語 😀' } });
          assert.equal(made.status, 200, JSON.stringify(made.body));
          const [got] = await rcv.waitFor(1);
          const { id, data } = await sse.line;
          const body = got.raw.toString('utf8');
          assert.match(body, /^\{"event":"sheet\.created","timestamp":"[^"]+","data":\{"sheet_id":/);
          assert.equal(data, `{"id":"${id}",${body.slice(1)}`);
        } finally {
          sse.close();
        }
      } finally {
        await rcv.close();
      }
    });
  });
}
