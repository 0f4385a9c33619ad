import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { createGroupCommit, transactionAlone, withWritesHeld } from '../../src/db/sqlite/group-commit.js';
import { withStatementCache } from '../../src/db/sqlite/statement-cache.js';
import type { Db } from '../../src/db/types.js';

/**
 * src/db/sqlite/group-commit.ts on a real SQLite file: transactions that queue up share one COMMIT, yet
 * each keeps the outcome it would have had alone (its own writes, its own error), and no caller
 * hears of a write before it is committed.
 */
describe('group commit [sqlite]', () => {
  let dir: string;
  let file: SQLite.Database;
  let db: Db;
  let other: SQLite.Database;
  let commits = 0;
  let notified = 0;
  let run: ReturnType<typeof createGroupCommit>;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-group-'));
    file = new SQLite(path.join(dir, 'g.db'));
    file.pragma('journal_mode = WAL');
    file.pragma('foreign_keys = ON');
    file.exec(`create table parents (id integer primary key);
      create table rows (id text primary key, parent integer references parents(id) deferrable initially deferred);
      insert into parents values (1);`);
    const cached = withStatementCache(file);
    db = new Kysely<any>({
      dialect: new SqliteDialect({
        database: {
          close: () => cached.close(),
          prepare(text: string) {
            if (text === 'commit') commits++;
            return cached.prepare(text);
          },
        },
      }),
    }) as Db;
    other = new SQLite(path.join(dir, 'g.db'), { readonly: true });
    run = createGroupCommit(db, () => notified++);
  });
  after(async () => {
    other.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const insert =
    (id: string, parent = 1) =>
    (trx: any) =>
      sql`insert into rows (id, parent) values (${id}, ${parent})`.execute(trx).then(() => id);
  const stored = (ids: string[]) => ids.filter((id) => other.prepare('select 1 from rows where id = ?').get(id));

  it('runs 100 transactions sent at once under few commits; a throwing one loses only its own writes', async () => {
    commits = 0;
    notified = 0;
    const seenAtResolve: boolean[] = [];
    const calls = Array.from({ length: 100 }, (_, i) => {
      const id = `a${i}`;
      const fn = async (trx: any) => {
        await insert(id)(trx);
        if (i % 10 === 3) throw new Error(`refused ${id}`);
        return id;
      };
      // Checked on another connection the moment the caller hears back: the write must be committed.
      return run(fn).then((v) => {
        seenAtResolve[i] = stored([id]).length === 1;
        return v;
      });
    });
    const results = await Promise.allSettled(calls);
    results.forEach((r, i) => {
      if (i % 10 === 3) assert.deepEqual(r.status === 'rejected' && (r.reason as Error).message, `refused a${i}`);
      else assert.deepEqual(r, { status: 'fulfilled', value: `a${i}` });
    });
    const ids = results.map((_, i) => `a${i}`);
    assert.deepEqual(
      stored(ids),
      ids.filter((_, i) => i % 10 !== 3),
    );
    assert.ok(seenAtResolve.filter((_, i) => i % 10 !== 3).every(Boolean), 'every caller heard back after its commit');
    assert.ok(commits < 20, `100 transactions took ${commits} commits`);
    assert.equal(notified, commits, 'the outbox hears once per commit');
  });

  it('keeps arrival order: a later transaction sees what an earlier one of the same group wrote', async () => {
    const order: string[] = [];
    await Promise.all([
      run(insert('b1')),
      run(async (trx) => {
        const row = await sql<{ n: number }>`select count(*) as n from rows where id = 'b1'`.execute(trx);
        order.push(`b1 visible: ${row.rows[0].n}`);
      }),
      run(async (trx) => {
        await insert('b1')(trx); // the same key again: a constraint error for this one alone
      }),
    ]).catch((err) => order.push(`failed: ${(err as Error).message}`));
    assert.equal(order[0], 'b1 visible: 1');
    assert.match(order[1], /UNIQUE constraint failed/);
    assert.deepEqual(stored(['b1']), ['b1']);
  });

  it('runs each again alone when the group COMMIT fails, so only the bad one fails', async () => {
    commits = 0;
    // A deferred foreign key is checked at COMMIT: in a group, one bad row fails everyone's commit.
    const results = await Promise.allSettled([run(insert('c1')), run(insert('c2', 999)), run(insert('c3'))]);
    assert.equal(results[0].status, 'fulfilled');
    assert.equal(results[2].status, 'fulfilled');
    assert.equal(results[1].status, 'rejected');
    assert.match(String((results[1] as PromiseRejectedResult).reason), /FOREIGN KEY constraint failed/);
    assert.deepEqual(stored(['c1', 'c2', 'c3']), ['c1', 'c3']);
    assert.ok(commits >= 4, `the failed group commit and three alone (${commits})`);
  });

  it('fails the waiting ones, rather than retrying for ever, when the write lock cannot be had', async () => {
    const locker = new SQLite(path.join(dir, 'g.db'));
    locker.exec('begin immediate'); // another process holds the write lock (this connection waits 0 ms)
    try {
      const results = await Promise.allSettled([run(insert('e1')), run(insert('e2'))]);
      assert.deepEqual(
        results.map((r) => r.status === 'rejected' && /locked|busy/i.test(String(r.reason))),
        [true, true],
      );
    } finally {
      locker.exec('commit');
      locker.close();
    }
    assert.equal(await run(insert('e3')), 'e3');
    assert.deepEqual(stored(['e1', 'e2', 'e3']), ['e3']);
  });

  it('starts a lone transaction without waiting for company', async () => {
    commits = 0;
    assert.equal(await run(insert('d1')), 'd1');
    assert.equal(commits, 1);
    assert.deepEqual(stored(['d1']), ['d1']);
  });

  it('holds groups while withWritesHeld runs: it starts after the group in progress and the waiting ones go on after it', async () => {
    const order: string[] = [];
    const slow = (id: string) => async (trx: any) => {
      await new Promise((r) => setTimeout(r, 30));
      await insert(id)(trx);
      order.push(`commit-wait ${id}`);
      return id;
    };
    const first = run(slow('h1'));
    await new Promise((r) => setImmediate(r)); // h1's group is under way
    const held = withWritesHeld(db, async () => {
      order.push('held');
      // h1 is committed before the hold starts; h2, sent now, waits for the hold to end.
      assert.deepEqual(stored(['h1']), ['h1']);
      const second = run(insert('h2'));
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(stored(['h2']), []);
      order.push('released');
      return { second }; // wrapped: awaiting h2 inside the hold would wait for the hold itself
    });
    assert.equal(await first, 'h1');
    assert.equal(await (await held).second, 'h2');
    assert.deepEqual(stored(['h1', 'h2']), ['h1', 'h2']);
    assert.deepEqual(order, ['commit-wait h1', 'held', 'released']);
  });

  it('runs a transaction of its own (transactionAlone) only after a hold ends, like the groups', async () => {
    const order: string[] = [];
    const held = withWritesHeld(db, async () => {
      // Sent during the hold (a webhook worker's claim while a checkpoint copies its last pages).
      const alone = transactionAlone(db, async (trx) => {
        await insert('t1')(trx);
        order.push('alone');
      });
      await new Promise((r) => setTimeout(r, 30));
      order.push('hold ended');
      return { alone };
    });
    await (
      await held
    ).alone;
    assert.deepEqual(order, ['hold ended', 'alone']);
    assert.deepEqual(stored(['t1']), ['t1']);
  });
});
