import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

const createCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'create_sheet', arguments: { title: `s${id}` } } });

async function post(s: TestServer, key: string, body: unknown) {
  const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function sheetCount(s: TestServer, userId: string) {
  const r = await s.c.db
    .selectFrom('sheets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

for (const dialect of dialects()) {
  describe(`MCP batches cannot bypass the plan limit [${dialect}]`, () => {
    const { s } = useServer(dialect);

    it('a JSON-RPC batch is refused whole with -32600 and creates nothing', async () => {
      const free = await s.user('free');
      const batch = Array.from({ length: 60 }, (_, i) => createCall(i + 1));
      const res = await post(s, free.key, batch);
      assert.equal(res.status, 400);
      assert.equal(res.body.jsonrpc, '2.0');
      assert.equal(res.body.id, null);
      assert.equal(res.body.error.code, -32600);
      assert.match(res.body.error.message, /batch/i);
      assert.match(res.body.error.message, /2025-06-18/);
      assert.equal(await sheetCount(s, free.userId), 0);
      // A one-element batch is a batch too.
      assert.equal((await post(s, free.key, [createCall(1)])).body.error.code, -32600);
    });

    it('a free account creates at most 30 sheets in a minute through /mcp, batched or not', async () => {
      const free = await s.user('free');
      const single = await Promise.all(Array.from({ length: 40 }, (_, i) => post(s, free.key, createCall(i + 1))));
      const passed = single.filter((r) => r.status === 200);
      const statuses = single.map((r) => `${r.status}${r.status === 200 ? '' : ` ${JSON.stringify(r.body)}`}`);
      assert.equal(passed.length, 30, statuses.join('\n'));
      for (const r of passed) assert.equal(r.body.result.isError, undefined);
      for (const r of single.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 429);
        assert.equal(r.body.code, 'rate_limited');
        assert.ok(Number(r.headers.get('retry-after')) >= 1);
      }
      assert.equal((await post(s, free.key, [createCall(99), createCall(100)])).status, 429);
      assert.equal(await sheetCount(s, free.userId), 30);
    });
  });
}
