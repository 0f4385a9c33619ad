import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { groupStatement, oneStatement } from '../../src/db/postgres/insert-batch.js';
import { compiledInsert } from '../../src/db/sqlite/statement-cache.js';
import type { Outbox, TxRunner } from '../../src/events/outbox.js';

/**
 * tx.insertsOnly (src/db/postgres/insert-batch.ts): on PostgreSQL a create's rows go in one statement of
 * data-modifying CTEs. Every row or none, nothing but compiledInsert rows, and the outbox told as for
 * any commit. On SQLite the same runner as tx; the checks hold there too.
 */
const insertTodo = compiledInsert('todos', [
  'id',
  'workspace_id',
  'user_id',
  'content',
  'status',
  'project',
  'priority',
  'active_form',
  'created_at',
  'updated_at',
  'version',
  'content_key',
  'session_ref',
  'changed_by',
]);

it("oneStatement renumbers each INSERT's placeholders after the ones before it", () => {
  const q = oneStatement([
    CompiledQuery.raw('insert into "a" ("x", "y") values ($1, $2)', [1, 2]),
    CompiledQuery.raw('insert into "b" ("z") values ($1)', [3]),
    CompiledQuery.raw('insert into "c" ("p", "q", "r", "s", "t", "u", "v", "w", "v2", "w2") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),
  ]);
  assert.equal(
    q.sql,
    'with b0 as (insert into "a" ("x", "y") values ($1, $2)), b1 as (insert into "b" ("z") values ($3)), ' +
      'b2 as (insert into "c" ("p", "q", "r", "s", "t", "u", "v", "w", "v2", "w2") values ($4, $5, $6, $7, $8, $9, $10, $11, $12, $13)) select 1',
  );
  assert.deepEqual(q.parameters, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
});

it('groupStatement merges the rows of identical INSERTs, in the order each first appears, and leaves any other statement alone', () => {
  const a = (x: number, y: number) => CompiledQuery.raw('insert into "a" ("x", "y") values ($1, $2)', [x, y]);
  const b = (z: number) => CompiledQuery.raw('insert into "b" ("z") values ($1)', [z]);
  const other = CompiledQuery.raw('insert into "c" ("p") values (now())', []);
  const q = groupStatement([a(1, 2), b(3), other, a(4, 5), b(6)]);
  assert.equal(q.sql, 'with b0 as (insert into "a" ("x", "y") values ($1, $2), ($3, $4)), b1 as (insert into "b" ("z") values ($5), ($6)), ' + 'b2 as (insert into "c" ("p") values (now())) select 1');
  assert.deepEqual(q.parameters, [1, 2, 4, 5, 3, 6]);
  assert.deepEqual(groupStatement([a(1, 2)]), a(1, 2), 'one statement stays as it is');
});

it('groupStatement reuses the SQL of a shape it built before: every size and order still numbers its rows right', () => {
  const a = (x: number, y: number) => CompiledQuery.raw('insert into "a" ("x", "y") values ($1, $2)', [x, y]);
  const b = (z: number) => CompiledQuery.raw('insert into "b" ("z") values ($1)', [z]);
  // Built by hand: n rows of a, then m rows of b, numbered in that order.
  const expected = (n: number, m: number) => {
    const rowsA = Array.from({ length: n }, (_, r) => `($${2 * r + 1}, $${2 * r + 2})`).join(', ');
    const rowsB = Array.from({ length: m }, (_, r) => `($${2 * n + r + 1})`).join(', ');
    return `with b0 as (insert into "a" ("x", "y") values ${rowsA}), b1 as (insert into "b" ("z") values ${rowsB}) select 1`;
  };
  for (const [n, m] of [
    [3, 1],
    [1, 3],
    [3, 1],
    [2, 2],
    [32, 5],
    [1, 1],
    [3, 1],
  ]) {
    const queries = [...Array.from({ length: n }, (_, i) => a(i, -i)), ...Array.from({ length: m }, (_, i) => b(100 + i))];
    const q = groupStatement(queries);
    assert.equal(q.sql, expected(n, m), `${n} x a, ${m} x b`);
    assert.deepEqual(
      q.parameters,
      queries.flatMap((x) => x.parameters),
    );
  }
  // b first: its statement now sits at offset 0 and a's after it.
  const q = groupStatement([b(7), a(1, 2)]);
  assert.equal(q.sql, 'with b0 as (insert into "b" ("z") values ($1)), b1 as (insert into "a" ("x", "y") values ($2, $3)) select 1');
});

for (const dialect of dialects()) {
  describe(`insert batch [${dialect}]`, () => {
    const {
      s,
      users: { user },
    } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' }, users: { user: 'business' } });
    const db = () => s.c.db as Kysely<any>;
    const tx = () => s.c.tx as TxRunner;
    const outbox = () => s.c.outbox as Outbox;
    let seq = 0;
    const todo = (id: string) => {
      const now = new Date().toISOString();
      seq++;
      return {
        id,
        workspace_id: user.personalWorkspace,
        user_id: user.userId,
        content: `todo ${id}`,
        status: 'pending',
        project: 'batch',
        priority: 'medium',
        active_form: null,
        created_at: now,
        updated_at: now,
        version: 1,
        content_key: `todo ${id}`,
        session_ref: null,
        changed_by: null,
      } as const;
    };
    const countTodos = async (ids: string[]) => Number((await sql<{ n: string }>`select count(*) as n from todos where id in (${sql.join(ids)})`.execute(db())).rows[0].n);

    it('writes every row of the batch, and tells the outbox which workspaces it wrote events for', async () => {
      const told: (readonly string[] | undefined)[] = [];
      const stop = outbox().onCommitted((_due, commit) => told.push(commit.workspaces));
      try {
        const ids = [`tdo_batch_a${seq}`, `tdo_batch_b${seq}`];
        const value = await tx().insertsOnly(async (trx) => {
          await insertTodo(trx, todo(ids[0]));
          await insertTodo(trx, todo(ids[1]));
          await outbox().emit(trx, user.personalWorkspace, 'todo.deleted', { todo_id: ids[0], project: 'batch', deleted_at: new Date().toISOString() }, user.userId);
          return 'done';
        });
        assert.equal(value, 'done');
        assert.equal(await countTodos(ids), 2);
        assert.ok(
          told.some((accounts) => accounts?.includes(user.personalWorkspace)),
          JSON.stringify(told),
        );
      } finally {
        stop();
      }
    });

    it('writes none of the rows when one of them fails (a duplicate key), and rejects with the database error', async () => {
      const taken = `tdo_batch_taken${seq}`;
      await tx()((trx) => insertTodo(trx, todo(taken)));
      const fresh = `tdo_batch_fresh${seq}`;
      await assert.rejects(
        tx().insertsOnly(async (trx) => {
          await insertTodo(trx, todo(fresh));
          await insertTodo(trx, todo(taken));
        }),
        (err: Error) => /unique|duplicate|constraint/i.test(err.message),
      );
      assert.equal(await countTodos([fresh]), 0, 'the first row of a failed batch must not stay');
    });

    it('refuses any statement but compiledInsert rows, and writes nothing then', async () => {
      if (dialect !== 'postgres') return; // SQLite's insertsOnly is the ordinary runner: any statement may run
      const id = `tdo_batch_refused${seq}`;
      await assert.rejects(
        tx().insertsOnly(async (trx) => {
          await insertTodo(trx, todo(id));
          await trx.selectFrom('todos').select('id').execute();
        }),
        /only compiledInsert/,
      );
      await assert.rejects(
        tx().insertsOnly(async (trx) => void (await sql`select 1`.execute(trx))),
        /only compiledInsert/,
      );
      assert.equal(await countTodos([id]), 0);
    });

    it('50 sheets posted at once: each written once, each with its sheet.created event, the count right', async () => {
      const before = (await s.req('GET', '/v1/sheets?limit=1', { key: user.key })).body.total as number;
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => s.req('POST', '/v1/sheets', { key: user.key, body: { title: `batch ${i}`, content: { col1: `<p>row ${i} 東京</p>` } } })));
      for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
      const ids = results.map((r) => r.body.id as string);
      assert.equal(new Set(ids).size, 50);
      const sheets = Number((await sql<{ n: string }>`select count(*) as n from sheets where id in (${sql.join(ids)})`.execute(db())).rows[0].n);
      assert.equal(sheets, 50);
      const events = (await sql<{ data: string }>`select data from outbox where event = 'sheet.created' and workspace_id = ${user.personalWorkspace}`.execute(db())).rows;
      const evented = new Set(events.map((e) => JSON.parse(e.data).sheet_id as string));
      for (const id of ids) assert.ok(evented.has(id), `no sheet.created event for ${id}`);
      assert.equal((await s.req('GET', '/v1/sheets?limit=1', { key: user.key })).body.total, before + 50);
      const found = await s.req('GET', `/v1/sheets?q=${encodeURIComponent('東京')}&limit=100`, { key: user.key });
      assert.equal(found.body.total, 50, 'every batched sheet is in the search index at once (read-your-writes)');
    });

    it('batches ready at once share a statement; a failing one rejects alone, the others are written with their events', async () => {
      const taken = `tdo_group_taken${seq++}`;
      await tx()((trx) => insertTodo(trx, todo(taken)));
      const ids = Array.from({ length: 40 }, (_, i) => `tdo_group_${seq}_${i}`);
      const outcomes = await Promise.allSettled(
        ids.map((id, i) =>
          tx().insertsOnly(async (trx) => {
            await insertTodo(trx, todo(id));
            if (i === 17) await insertTodo(trx, todo(taken)); // this batch fails on the duplicate key
            await outbox().emit(trx, user.personalWorkspace, 'todo.deleted', { todo_id: id, project: 'group', deleted_at: new Date().toISOString() }, user.userId);
          }),
        ),
      );
      assert.deepEqual(
        outcomes.map((o, i) => (i === 17 ? o.status === 'rejected' : o.status === 'fulfilled')),
        ids.map(() => true),
        JSON.stringify(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))),
      );
      assert.equal(await countTodos(ids), 39);
      assert.equal(await countTodos([ids[17]]), 0);
      const events = (await sql<{ data: string }>`select data from outbox where event = 'todo.deleted' and workspace_id = ${user.personalWorkspace}`.execute(db())).rows;
      const evented = new Set(events.map((e) => JSON.parse(e.data).todo_id as string));
      assert.deepEqual(
        ids.filter((id) => evented.has(id)),
        ids.filter((_, i) => i !== 17),
        'one event per written batch, none for the failed one',
      );
    });
  });
}
