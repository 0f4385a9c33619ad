import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { createReadBatcher } from '../../src/modules/sheets/sheets.read-batch.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/** Counts the statements run through the Kysely instance it is added to. */
class CountStatements implements KyselyPlugin {
  n = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    this.n++;
    return args.result;
  }
}

for (const dialect of dialects().filter((d) => d === 'postgres')) {
  describe(`GET by id reads gathered per turn [${dialect}]`, () => {
    const { s } = useServer(dialect);

    it('requests of one turn share one statement, each gets its own sheet, unknown ids get none', async () => {
      const { key } = await s.user();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await s.req('POST', '/v1/sheets', { key, body: { title: `t${i}` } })).body.sheet.id);
      const counter = new CountStatements();
      const read = createReadBatcher(s.c.db.withPlugin(counter));
      const unknown = 'sht_01kzzzzzzzzzzzzzzzzzzzzzzz';
      const asked = [...ids, ids[0], unknown];
      const got = await Promise.all(asked.map((id) => read(id)));
      assert.equal(counter.n, 2, '22 reads of one turn: 21 distinct ids, at most 16 a statement');
      got.forEach((r, i) => {
        assert.equal(typeof r.authGeneration, 'number');
        if (asked[i] === unknown) assert.equal(r.row, undefined);
        else {
          assert.equal(r.row!.id, asked[i]);
          assert.equal(JSON.parse(r.row!.content.toString('utf8')) !== null, true);
        }
      });
      assert.equal(got[20].row!.title, 't0');
      await read(ids[1]);
      assert.equal(counter.n, 3, 'a later turn reads again');
    });

    it('many GETs by id in flight at once over HTTP each answer their own sheet, and refuse another account', async () => {
      const a = await s.user();
      const b = await s.user();
      const mine: string[] = [];
      for (let i = 0; i < 30; i++) mine.push((await s.req('POST', '/v1/sheets', { key: a.key, body: { title: `a${i}`, content: { col1: `<p>${i}</p>` } } })).body.sheet.id);
      const theirs = (await s.req('POST', '/v1/sheets', { key: b.key, body: { title: 'b' } })).body.sheet.id as string;
      for (let round = 0; round < 2; round++) {
        const res = await Promise.all([
          ...mine.map((id) => s.req('GET', `/v1/sheets/${id}`, { key: a.key })),
          s.req('GET', `/v1/sheets/${theirs}`, { key: a.key }),
          s.req('GET', `/v1/sheets/${theirs}`, { key: b.key }),
        ]);
        mine.forEach((id, i) => {
          assert.equal(res[i].status, 200);
          assert.equal(res[i].body.sheet.id, id);
          assert.equal(res[i].body.sheet.content.col1, `<p>${i}</p>`);
        });
        assert.equal(res[30].status, 403);
        assert.equal(res[31].status, 200);
        assert.equal(res[31].body.sheet.title, 'b');
      }
    });
  });
}
