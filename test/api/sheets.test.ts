import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ISO, assertError, assertIdRouteSecurity, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { manualClock } from '../../src/clock.js';

for (const dialect of dialects()) {
  describe(`sheets [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-03-10T12:00:00.000Z'));
    const {
      s,
      users: { alice },
    } = useServer(dialect, { clock, users: { alice: 'pro' } });

    const create = (body: unknown, key = alice.key) => s.req('POST', '/v1/sheets', { key, body });

    it('creates a sheet and returns every field', async () => {
      const r = await create({ title: 'Plan', content: { col1: '<p>Hi</p>' }, folder: 'Work', tags: ['x', 'y'] });
      assert.equal(r.status, 200);
      assert.equal(r.body.success, true);
      assert.match(r.body.id, /^sht_[0-9a-z]{26}$/);
      assert.equal(r.body.title, 'Plan');
      const sheet = r.body.sheet;
      assert.deepEqual(Object.keys(sheet).sort(), ['content', 'createdAt', 'folder', 'id', 'tags', 'title', 'trashedAt', 'updatedAt', 'version', 'workspace_id']);
      assert.equal(sheet.workspace_id, `wsp_${alice.userId.slice(4)}`, "a personal sheet is in its owner's personal workspace");
      assert.deepEqual(sheet.content, { col1: '<p>Hi</p>' });
      assert.equal(sheet.folder, 'Work');
      assert.deepEqual(sheet.tags, ['x', 'y']);
      assert.equal(sheet.createdAt, '2026-03-10T12:00:00.000Z');
      assert.match(sheet.updatedAt, ISO);
      assert.equal(sheet.trashedAt, null);
      const [ev] = (await s.events('sheet.created')).filter((e) => e.data.sheet_id === r.body.id);
      const context = { workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId };
      assert.deepEqual(ev.data, { sheet_id: r.body.id, name: 'Plan', created_at: '2026-03-10T12:00:00.000Z', ...context });
      assert.equal(ev.workspace_id, alice.personalWorkspace);
    });

    it('rejects bad input with 400 naming the field', async () => {
      assertError(await create({}), 400, 'invalid_request', /title/);
      assertError(await create({ title: 5 }), 400, 'invalid_request', /title/);
      assertError(await create({ title: '  ' }), 400, 'invalid_request', /title/);
      assertError(await create({ title: 'a', content: { colx: '<p/>' } }), 400, 'invalid_request', /content/);
      assertError(await create({ title: 'a', content: { col1: 7 } }), 400, 'invalid_request', /content\.col1/);
      assertError(await create({ title: 'a', tags: 'x' }), 400, 'invalid_request', /tags/);
      assertError(await create([1, 2]), 400, 'invalid_request');
      assertError(await s.req('POST', '/v1/sheets', { key: alice.key, raw: '{"title":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json', /JSON/);
      assertError(await s.req('POST', '/v1/sheets', { key: alice.key, raw: 'title=a', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type', /application\/json/);
      const big = JSON.stringify({ title: 'big', content: { col1: 'x'.repeat(1024 * 1024) } });
      assertError(await s.req('POST', '/v1/sheets', { key: alice.key, raw: big, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
      assertError(await s.req('GET', '/v1/sheets?limit=-1', { key: alice.key }), 400, 'invalid_request', /limit/);
      assertError(await s.req('GET', '/v1/sheets?offset=1.5', { key: alice.key }), 400, 'invalid_request', /offset/);
      assertError(await s.req('GET', '/v1/nope', { key: alice.key }), 404, 'not_found', /nope/);
      assertError(await s.req('PATCH', '/v1/sheets', { key: alice.key }), 404, 'not_found');
    });

    it('lists newest first with limit, offset, total, and clamps limit to 100', async () => {
      const bob = await s.user('free');
      for (let i = 0; i < 5; i++) await create({ title: `n${i}` }, bob.key);
      const page = await s.req('GET', '/v1/sheets?limit=2&offset=1', { key: bob.key });
      assert.equal(page.status, 200);
      assert.equal(page.body.total, 5);
      assert.deepEqual(
        page.body.sheets.map((x: any) => x.title),
        ['n3', 'n2'],
      );
      const clamped = await s.req('GET', '/v1/sheets?limit=1000', { key: bob.key });
      assert.equal(clamped.body.sheets.length, 5);
      assert.equal(
        (await s.req('GET', '/v1/sheets', { key: alice.key })).body.sheets.some((x: any) => x.title.startsWith('n')),
        false,
      );
    });

    it('merge-updates content by column and reports changes', async () => {
      const { body } = await create({ title: 'm', content: { col1: 'a', col2: 'b', col3: 'c' } });
      clock.advance(1000);
      const r = await s.req('PUT', `/v1/sheets/${body.id}`, { key: alice.key, body: { content: { col2: 'B', col3: null, col4: 'd' }, folder: 'F' } });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.sheet.content, { col1: 'a', col2: 'B', col4: 'd' });
      assert.equal(r.body.sheet.folder, 'F');
      assert.equal(r.body.sheet.updatedAt, '2026-03-10T12:00:01.000Z');
      const evs = (await s.events('sheet.updated')).filter((e) => e.data.sheet_id === body.id);
      assert.deepEqual(
        evs.map((e) => e.data),
        [
          {
            sheet_id: body.id,
            changes: ['content', 'folder'],
            columns: ['col2', 'col3', 'col4'],
            version: 2,
            updated_at: '2026-03-10T12:00:01.000Z',
            workspace_id: `wsp_${alice.userId.slice(4)}`,
            actor_id: alice.userId,
          },
        ],
      );
      const same = await s.req('PUT', `/v1/sheets/${body.id}`, { key: alice.key, body: { title: 'm', content: { col1: 'a' } } });
      assert.equal(same.status, 200);
      assert.equal((await s.events('sheet.updated')).filter((e) => e.data.sheet_id === body.id).length, 1, 'a no-op update fires nothing');
      assertError(await s.req('PUT', `/v1/sheets/${body.id}`, { key: alice.key, body: { title: '' } }), 400, 'invalid_request', /title/);
    });

    it('trashes, restores and permanently deletes', async () => {
      const { body } = await create({ title: 'trash me' });
      const del = await s.req('DELETE', `/v1/sheets/${body.id}`, { key: alice.key });
      assert.deepEqual(del.body, { success: true, id: body.id, trashedAt: clock.now().toISOString(), deleted: false });
      const got = await s.req('GET', `/v1/sheets/${body.id}`, { key: alice.key });
      assert.equal(got.body.sheet.trashedAt, clock.now().toISOString());
      const active = await s.req('GET', '/v1/sheets?limit=100', { key: alice.key });
      assert.equal(
        active.body.sheets.some((x: any) => x.id === body.id),
        false,
      );
      const trash = await s.req('GET', '/v1/sheets?trashed=true', { key: alice.key });
      assert.equal(
        trash.body.sheets.some((x: any) => x.id === body.id),
        true,
      );
      const ev = (await s.events('sheet.deleted')).filter((e) => e.data.sheet_id === body.id);
      assert.deepEqual(
        ev.map((e) => e.data),
        [{ sheet_id: body.id, deleted_at: clock.now().toISOString(), workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId }],
      );

      const restored = await s.req('POST', `/v1/sheets/${body.id}/restore`, { key: alice.key });
      assert.equal(restored.status, 200);
      assert.equal(restored.body.sheet.trashedAt, null);

      const gone = await s.req('DELETE', `/v1/sheets/${body.id}?permanent=true`, { key: alice.key });
      assert.deepEqual(gone.body, { success: true, id: body.id, trashedAt: null, deleted: true });
      assertError(await s.req('GET', `/v1/sheets/${body.id}`, { key: alice.key }), 404, 'not_found');
    });

    it('purges sheets trashed more than 30 days ago', async () => {
      const old = (await create({ title: 'old' })).body.id;
      await s.req('DELETE', `/v1/sheets/${old}`, { key: alice.key });
      clock.advance(20 * 86400_000);
      const recent = (await create({ title: 'recent' })).body.id;
      await s.req('DELETE', `/v1/sheets/${recent}`, { key: alice.key });
      clock.advance(11 * 86400_000);
      await s.c.sheets.purgeTrash();
      assert.equal((await s.req('GET', `/v1/sheets/${old}`, { key: alice.key })).status, 404);
      assert.equal((await s.req('GET', `/v1/sheets/${recent}`, { key: alice.key })).status, 200);
    });

    it('searches titles and HTML text, case-insensitively, in English and CJK', async () => {
      const carol = await s.user('pro');
      const mk = async (title: string, html: string) => (await create({ title, content: { col1: html } }, carol.key)).body.id;
      const en = await mk('Deploy NOTES', '<p>Restart the <b>Worker</b> after migration</p>');
      const ja = await mk('会議メモ', '<p>東京で<b>打</b>ち合わせ。猫</p>');
      const zh = await mk('笔记', '<div>数据库迁移</div>');
      const ko = await mk('메모', '<p>서울 회의</p>');
      const attr = await mk('attr', '<a href="https://secret.example">link</a><script>hidden()</script>');
      const search = async (q: string) => (await s.req('GET', `/v1/sheets?q=${encodeURIComponent(q)}`, { key: carol.key })).body.sheets.map((x: any) => x.id).sort();
      assert.deepEqual(await search('worker'), [en]);
      assert.deepEqual(await search('deploy restart'), [en]);
      assert.deepEqual(await search('deploy nothing'), []);
      assert.deepEqual(await search('打ち合わせ'), [ja], 'inline tags do not split words');
      assert.deepEqual(await search('猫'), [ja], 'one-character CJK word');
      assert.deepEqual(await search('東京'), [ja], 'two-character CJK word');
      assert.deepEqual(await search('迁移'), [zh]);
      assert.deepEqual(await search('서울'), [ko]);
      assert.deepEqual(await search('ＷＯＲＫＥＲ'), [en], 'full-width letters match');
      assert.deepEqual(await search('secret'), [], 'attributes are not text');
      assert.deepEqual(await search('hidden'), [], 'scripts are not text');
      assert.deepEqual(await search('div'), [], 'tag names are not text');
      assert.deepEqual(await search('href'), [], 'attribute names are not text');
      assert.deepEqual(await search('100%'), []);
      assert.deepEqual(await search('_'), []);
      assert.equal(attr.length > 0, true);
      const total = (await s.req('GET', `/v1/sheets?q=${encodeURIComponent('東京')}`, { key: carol.key })).body.total;
      assert.equal(total, 1);
      assert.deepEqual(
        await search('東京')
          .then(() => s.req('GET', `/v1/sheets?q=東京`, { key: alice.key }))
          .then((r) => r.body.total),
        0,
        'other accounts are not searched',
      );
    });

    it('401/403/404 on every route that takes an id', async () => {
      const id = (await create({ title: 'sec' })).body.id;
      const unknown = 'sht_00000000000000000000000000';
      await assertIdRouteSecurity(s, { method: 'GET', path: (x) => `/v1/sheets/${x}` }, alice, id, unknown);
      await assertIdRouteSecurity(s, { method: 'PUT', path: (x) => `/v1/sheets/${x}`, body: { title: 't' } }, alice, id, unknown);
      await assertIdRouteSecurity(s, { method: 'POST', path: (x) => `/v1/sheets/${x}/restore` }, alice, id, unknown);
      await assertIdRouteSecurity(s, { method: 'DELETE', path: (x) => `/v1/sheets/${x}` }, alice, id, unknown);
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key })).body.sheet.trashedAt, null, 'the other account changed nothing');
    });

    it("PUT on another account's big sheet is a 403 (its stored columns are not prepared first)", async () => {
      const big = `<p>${'word '.repeat(8000)}</p>`;
      assert.ok(big.length > 32 * 1024);
      const id = (await create({ title: 'big', content: { col1: big } })).body.id;
      const mallory = await s.user('free');
      const r = await s.req('PUT', `/v1/sheets/${id}`, { key: mallory.key, body: { title: 'mine now' } });
      assertError(r, 403, 'forbidden');
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key })).body.sheet.title, 'big');
    });
  });
}
