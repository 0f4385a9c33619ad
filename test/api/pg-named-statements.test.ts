import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/**
 * PostgreSQL: statements compiled once (the key lookup, GET by id's row, compiledInsert) run as named
 * prepared statements (src/db/postgres/pg-named-statements.ts), parsed once per connection; other statements
 * stay unnamed, so what a connection keeps is bounded. Answers are the same either way.
 */
if (dialects().includes('postgres')) {
  describe('named prepared statements [postgres]', () => {
    const {
      s,
      users: { user },
    } = useServer('postgres', { env: { RATE_LIMIT_DISABLED: '1' }, users: { user: 'pro' } });

    it('the key lookup and the row read are prepared once per connection and answer as before, 200 times over', async () => {
      const made = await s.req('POST', '/v1/sheets', { key: user.key, body: { title: 'Named', content: { col1: '<p>prepared once</p>' } } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const reads = await Promise.all(Array.from({ length: 200 }, () => s.req('GET', `/v1/sheets/${made.body.id}`, { key: user.key })));
      for (const r of reads) {
        assert.equal(r.status, 200);
        assert.equal(r.body.sheet.title, 'Named');
        assert.deepEqual(r.body.sheet.content, { col1: '<p>prepared once</p>' });
      }
      const unknownKey = await s.req('GET', `/v1/sheets/${made.body.id}`, { key: `sk_${'x'.repeat(43)}` });
      assert.equal(unknownKey.status, 401, 'a key the prepared lookup does not find is still refused');

      // Every pooled connection: what it has prepared.
      const db = s.c.db as Kysely<any>;
      const prepared = await Promise.all(
        Array.from({ length: 10 }, () => db.connection().execute(async (conn) => (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(conn)).rows)),
      );
      const all = prepared.flat();
      assert.ok(
        all.some((p) => p.name.startsWith('sw_stmt_') && /from "api_keys"/.test(p.statement)),
        'the key lookup runs prepared',
      );
      // GET by id's row: alone, or (for a key already seen, as here) with the auth generation and the other GETs of its turn (sheets.read-batch.ts).
      const rowRead = /from "sheets" where "id" = \$1|from "auth_generation" left join "sheets" on "sheets"\."id" (= \$1|in \()/;
      assert.ok(
        all.some((p) => p.name.startsWith('sw_stmt_') && rowRead.test(p.statement)),
        'the row read runs prepared',
      );
      assert.ok(
        all.every((p) => p.name.startsWith('sw_stmt_')),
        `only registered statements are named: ${all.map((p) => p.name).join(', ')}`,
      );
      const names = new Set(all.map((p) => p.name));
      // Bounded by the call sites: each statement compiled once, and the 16 sizes of the batched row read.
      assert.ok(names.size < 50, `a bounded set of names (${names.size})`);
    });
  });
}
