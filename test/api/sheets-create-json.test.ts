import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { CreateSheetResponse } from '../../src/modules/sheets/sheets.schemas.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/**
 * POST /v1/sheets answers through its response schema (a bytes twin built from the row, createdSheetJson,
 * was removed on 2026-12-07: it bought nothing measurable, docs/decisions/0002-bytes-twins.md): the answer
 * is the very text the schema's serializer gives, for the inputs whose escaping or key order could differ.
 */
const serialize = serializerCompiler({ schema: CreateSheetResponse, method: 'POST', url: '/v1/sheets', httpStatus: '200' } as never) as (data: unknown) => string;

const BODIES = [
  { title: 'plain' },
  {
    title: 'Ünïcödé "quotes" \\ and \u2028\u2029 😀 </script>',
    content: { col1: '<h1>東京の会議</h1><ul><li>a &amp; b</li></ul>', col2: '<pre><code>x &lt; 1\n\t</code></pre>' },
    folder: 'work/notes',
    tags: ['a', '"b"'],
  },
  { title: 'columns out of order', content: { col10: '<p>10</p>', col3: '<p>3</p>', col1: '<p>1</p>' }, tags: [] },
  { title: '\u0001 control', content: { col1: '' }, folder: '' },
];

for (const dialect of dialects()) {
  describe(`POST /v1/sheets answer as built JSON [${dialect}]`, () => {
    const { s, users } = useServer(dialect, { users: { alice: 'pro' } });

    it('is byte for byte what the response schema serializes, with the ETag of version 1, and reads back the same', async () => {
      for (const body of BODIES) {
        const res = await fetch(`${s.url}/v1/sheets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${users.alice.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        assert.equal(res.status, 200, text);
        assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
        assert.equal(res.headers.get('etag'), '"1"');
        const answer = JSON.parse(text);
        assert.equal(text, serialize(answer), body.title);
        assert.equal(answer.sheet.title, body.title);
        assert.deepEqual(answer.sheet.content, body.content ?? {});
        assert.deepEqual(answer.sheet.tags, body.tags ?? []);
        assert.equal(answer.sheet.folder, body.folder ?? null);
        assert.equal(answer.id, answer.sheet.id);
        const read = await s.req('GET', `/v1/sheets/${answer.id}`, { key: users.alice.key });
        assert.deepEqual(read.body.sheet, answer.sheet);
      }
    });

    it('an idempotent replay answers the same text', async () => {
      const headers = { authorization: `Bearer ${users.alice.key}`, 'content-type': 'application/json', 'idempotency-key': `k-${dialect}` };
      const send = () => fetch(`${s.url}/v1/sheets`, { method: 'POST', headers, body: JSON.stringify(BODIES[1]) });
      const first = await send();
      const firstText = await first.text();
      const again = await send();
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(await again.text(), firstText);
      assert.equal(again.headers.get('etag'), '"1"');
    });
  });
}
