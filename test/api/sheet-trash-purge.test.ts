import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { manualClock } from '../../src/clock.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/** The 30-day purge reads trashed sheets through their own partial index (migration 017), not every sheet. */
for (const dialect of dialects()) {
  describe(`trash purge [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-03-01T00:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    it('removes sheets trashed over 30 days ago, with their revisions, and keeps the rest', async () => {
      const make = async (title: string) => (await s.req('POST', '/v1/sheets', { key: alice.key, body: { title, content: { col1: `<p>${title}</p>` } } })).body.id as string;
      const [old, recent, live] = [await make('old'), await make('recent'), await make('live')];
      await s.req('PUT', `/v1/sheets/${old}`, { key: alice.key, body: { title: 'old, edited' } });
      await s.req('DELETE', `/v1/sheets/${old}`, { key: alice.key });
      clock.advance(20 * 86_400_000);
      await s.req('DELETE', `/v1/sheets/${recent}`, { key: alice.key });
      clock.advance(11 * 86_400_000);
      assert.equal(await s.c.sheets.purgeTrash(), 1);
      assert.equal((await s.req('GET', `/v1/sheets/${old}`, { key: alice.key })).status, 404);
      assert.equal((await s.c.db.selectFrom('sheet_revisions').select('version').where('sheet_id', '=', old).execute()).length, 0);
      assert.notEqual((await s.req('GET', `/v1/sheets/${recent}`, { key: alice.key })).body.sheet.trashedAt, null);
      assert.equal((await s.req('GET', `/v1/sheets/${live}`, { key: alice.key })).body.sheet.trashedAt, null);
    });

    it('finds the sheets to purge through sheets_trashed_at', async () => {
      const cutoff = new Date().toISOString();
      const plan =
        dialect === 'sqlite'
          ? (await sql<{ detail: string }>`explain query plan delete from sheets where trashed_at is not null and trashed_at < ${cutoff}`.execute(s.c.db)).rows.map((r) => r.detail)
          : await s.c.db.transaction().execute(async (trx) => {
              // A handful of rows would always be scanned; forbidding the scan shows whether the index can serve it.
              await sql`set local enable_seqscan = off`.execute(trx);
              return (await sql<{ 'QUERY PLAN': string }>`explain delete from sheets where trashed_at is not null and trashed_at < ${cutoff}`.execute(trx)).rows.map((r) => r['QUERY PLAN']);
            });
      assert.ok(
        plan.some((line) => line.includes('sheets_trashed_at')),
        plan.join('\n'),
      );
    });
  });
}
