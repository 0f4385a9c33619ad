import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { manualClock } from '../../src/clock.js';
import { RESOURCE_PAGE_SIZE } from '../../src/mcp/resources.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, sameErrorAsRest, toolError, without } from '../mcp-helpers.js';

for (const dialect of dialects()) {
  describe(`MCP sheet tools and resources [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-03-10T12:00:00.000Z'));
    let mcp: Client;
    const {
      s,
      users: { alice, bob },
      beforeClose,
    } = useServer(dialect, { clock, users: { alice: 'pro', bob: 'free' } });
    before(async () => {
      mcp = await httpClient(s, alice.key);
    });
    beforeClose(() => mcp.close());
    const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
    const eventsFor = async (id: string) => (await s.events()).filter((e) => e.data.sheet_id === id);

    it('create_sheet makes the same sheet and the same events as POST /v1/sheets', async () => {
      const input = { title: 'Plan', content: { col1: '<p>Hi</p>' }, folder: 'Work', tags: ['x'] };
      const viaMcp = ok(await call('create_sheet', input));
      const viaRest = (await s.req('POST', '/v1/sheets', { key: alice.key, body: input })).body;
      assert.deepEqual(Object.keys(viaMcp).sort(), Object.keys(viaRest).sort());
      assert.match(viaMcp.id, /^sht_/);
      assert.deepEqual(without(viaMcp.sheet, 'id'), without(viaRest.sheet, 'id'));
      // Read back through REST: stored exactly as the tool reported it.
      const got = await s.req('GET', `/v1/sheets/${viaMcp.id}`, { key: alice.key });
      assert.deepEqual(got.body.sheet, viaMcp.sheet);
      const [evMcp] = await eventsFor(viaMcp.id);
      const [evRest] = await eventsFor(viaRest.id);
      assert.equal(evMcp.event, 'sheet.created');
      assert.equal(evMcp.workspace_id, alice.personalWorkspace);
      const mine = { workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId };
      assert.deepEqual(evMcp.data, { sheet_id: viaMcp.id, name: 'Plan', created_at: '2026-03-10T12:00:00.000Z', ...mine });
      assert.deepEqual(without(evMcp.data, 'sheet_id'), without(evRest.data, 'sheet_id'));
    });

    it('create_sheet rejects bad arguments with the REST message, and writes nothing', async () => {
      const before = (await s.events()).length;
      for (const bad of [{}, { title: '  ' }, { title: 'a', content: { colx: '<p/>' } }, { title: 'a', tags: 'x' }]) {
        sameErrorAsRest(await call('create_sheet', bad), await s.req('POST', '/v1/sheets', { key: alice.key, body: bad }));
      }
      assert.match(toolError(await call('create_sheet', {}), 400, 'invalid_request').error, /field 'title' is required/);
      assert.equal((await s.events()).length, before);
    });

    it('list_sheets pages with total and has_more; search_sheets finds by words', async () => {
      const carol = await s.user('free');
      const client = await httpClient(s, carol.key);
      for (const t of ['alpha one', 'beta two', 'alpha three']) {
        await client.callTool({ name: 'create_sheet', arguments: { title: t, content: { col1: `<b>${t}</b> 日本語` } } });
      }
      const p1 = ok(await client.callTool({ name: 'list_sheets', arguments: { limit: 2 } }));
      assert.deepEqual([p1.total, p1.has_more, p1.sheets.map((x: any) => x.title)], [3, true, ['alpha three', 'beta two']]);
      const p2 = ok(await client.callTool({ name: 'list_sheets', arguments: { limit: 2, offset: 2 } }));
      assert.deepEqual([p2.total, p2.has_more, p2.sheets.map((x: any) => x.title)], [3, false, ['alpha one']]);
      // Compact items: the fields REST returns with fields=, never the content.
      assert.equal(p1.sheets[0].content, undefined);
      const fields = Object.keys(p1.sheets[0])
        .filter((k) => k !== 'id')
        .join(',');
      const rest = await s.req('GET', `/v1/sheets?limit=2&fields=${fields}`, { key: carol.key });
      assert.match(p1.next, /call list_sheets with offset=2/);
      assert.deepEqual(without(p1, 'has_more', 'next'), rest.body);

      const found = ok(await client.callTool({ name: 'search_sheets', arguments: { q: 'ALPHA' } }));
      // Best match first (relevance): the same words in a shorter text rank higher.
      assert.deepEqual([found.total, found.has_more, found.sheets.map((x: any) => x.title)], [2, false, ['alpha one', 'alpha three']]);
      assert.equal(ok(await client.callTool({ name: 'search_sheets', arguments: { q: '日本' } })).total, 3);
      toolError(await client.callTool({ name: 'search_sheets', arguments: {} }), 400, 'invalid_request');
      assert.match(toolError(await client.callTool({ name: 'list_sheets', arguments: { limit: -1 } }), 400, 'invalid_request').error, /limit/);
      await client.close();
    });

    it('list_sheets words a bad limit, offset or trashed exactly as GET /v1/sheets does', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ limit: 1.5 }, 'limit=1.5'],
        [{ limit: -1 }, 'limit=-1'],
        [{ limit: 1e10 }, 'limit=10000000000'],
        [{ offset: 'x' }, 'offset=x'],
        [{ trashed: 'yes' }, 'trashed=yes'],
      ];
      for (const [args, query] of cases) {
        const r = await call('list_sheets', args);
        sameErrorAsRest(r, await s.req('GET', `/v1/sheets?${query}`, { key: alice.key }));
      }
      assert.equal(toolError(await call('list_sheets', { limit: 1.5 }), 400, 'invalid_request').error, "query parameter 'limit': limit must be a non-negative integer");
    });

    it('get_sheet returns the sheet; unknown and foreign ids give the REST 404 and 403 messages', async () => {
      const { id } = ok(await call('create_sheet', { title: 'mine' }));
      assert.equal(ok(await call('get_sheet', { id })).sheet.title, 'mine');
      const unknown = 'sht_01jzzzzzzzzzzzzzzzzzzzzzzz';
      sameErrorAsRest(await call('get_sheet', { id: unknown }), await s.req('GET', `/v1/sheets/${unknown}`, { key: alice.key }));
      const bobs = ok(await (await httpClient(s, bob.key)).callTool({ name: 'create_sheet', arguments: { title: 'bob' } }));
      const foreign = await call('get_sheet', { id: bobs.id });
      toolError(foreign, 403, 'forbidden');
      sameErrorAsRest(foreign, await s.req('GET', `/v1/sheets/${bobs.id}`, { key: alice.key }));
      for (const name of ['update_sheet', 'trash_sheet', 'restore_sheet']) {
        toolError(await call(name, name === 'update_sheet' ? { id: bobs.id, title: 'x' } : { id: bobs.id }), 403, 'forbidden');
      }
      assert.equal((await s.req('GET', `/v1/sheets/${bobs.id}`, { key: bob.key })).body.sheet.title, 'bob');
    });

    it('update_sheet merges content and fires sheet.updated with the changed fields, like PUT', async () => {
      const { id } = ok(await call('create_sheet', { title: 'm', content: { col1: 'a', col2: 'b' } }));
      clock.advance(1000);
      const r = ok(await call('update_sheet', { id, content: { col2: null, col3: 'c' }, tags: ['t'] }));
      assert.deepEqual(r.sheet.content, { col1: 'a', col3: 'c' });
      assert.deepEqual(r.sheet.tags, ['t']);
      assert.deepEqual((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key })).body.sheet, r.sheet);
      ok(await call('update_sheet', { id, title: 'm' })); // no change, no event
      const updates = (await eventsFor(id)).filter((e) => e.event === 'sheet.updated');
      assert.deepEqual(
        updates.map((e) => e.data),
        [
          {
            sheet_id: id,
            changes: ['content', 'tags'],
            columns: ['col2', 'col3'],
            version: 2,
            updated_at: '2026-03-10T12:00:01.000Z',
            ...{ workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId },
          },
        ],
      );
      sameErrorAsRest(await call('update_sheet', { id, title: '' }), await s.req('PUT', `/v1/sheets/${id}`, { key: alice.key, body: { title: '' } }));
      toolError(await call('update_sheet', { title: 'no id' }), 400, 'invalid_request');
    });

    it('trash_sheet and restore_sheet move a sheet through the trash; permanent removes it', async () => {
      const { id } = ok(await call('create_sheet', { title: 'tmp' }));
      const trashed = ok(await call('trash_sheet', { id }));
      assert.deepEqual(trashed, { success: true, id, trashedAt: '2026-03-10T12:00:01.000Z', deleted: false });
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key })).body.sheet.trashedAt, trashed.trashedAt);
      assert.ok(ok(await call('list_sheets', { trashed: true })).sheets.some((x: any) => x.id === id));
      ok(await call('trash_sheet', { id })); // again: same state, no second event
      assert.deepEqual(
        (await eventsFor(id)).filter((e) => e.event === 'sheet.deleted').map((e) => e.data),
        [{ sheet_id: id, deleted_at: trashed.trashedAt, ...{ workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId } }],
      );
      const restored = ok(await call('restore_sheet', { id }));
      assert.equal(restored.sheet.trashedAt, null);
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key })).body.sheet.trashedAt, null);
      assert.deepEqual(ok(await call('trash_sheet', { id, permanent: true })), { success: true, id, trashedAt: null, deleted: true });
      assert.equal((await s.req('GET', `/v1/sheets/${id}`, { key: alice.key })).status, 404);
      sameErrorAsRest(await call('restore_sheet', { id }), await s.req('POST', `/v1/sheets/${id}/restore`, { key: alice.key }));
    });

    it('export_sheet makes what POST /v1/sheets/{id}/export makes: a url that downloads the file, and export.completed', async () => {
      const content = { col1: '<h2>Plan</h2><p>Ship <b>it</b></p>', col2: '<ul><li>one</li></ul>' };
      const { id, sheet } = ok(await call('create_sheet', { title: 'Export me', content, tags: ['t'] }));
      const viaMcp = ok(await call('export_sheet', { id, format: 'markdown' }));
      const viaRest = (await s.req('POST', `/v1/sheets/${id}/export`, { key: alice.key, body: { format: 'markdown' } })).body;
      assert.deepEqual(Object.keys(viaMcp).sort(), Object.keys(viaRest).sort());
      assert.deepEqual(Object.keys(viaMcp).sort(), ['expires_at', 'export_id', 'format', 'success', 'url', 'workspace_id']);
      assert.match(viaMcp.export_id, /^exp_/);
      assert.equal(viaMcp.format, 'markdown');
      assert.equal(viaMcp.expires_at, new Date(clock.now().getTime() + 24 * 3600_000).toISOString());
      assert.ok(viaMcp.url.startsWith(`${s.url}/exports/`), viaMcp.url);
      assert.notEqual(viaMcp.url, viaRest.url);

      const file = await fetch(viaMcp.url);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'text/markdown; charset=utf-8');
      const text = await file.text();
      assert.equal(text, await (await fetch(viaRest.url)).text());
      assert.match(text, /^title: "Export me"$/m);
      assert.match(text, /^## Plan$/m);
      assert.match(text, /Ship \*\*it\*\*/);
      assert.match(text, /^-\s+one$/m);
      const json = ok(await call('export_sheet', { id, format: 'json' }));
      assert.deepEqual(await (await fetch(json.url)).json(), sheet);

      const evs = (await s.events('export.completed')).filter((e) => e.data.sheet_id === id);
      const mine = { workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId };
      assert.deepEqual(
        evs.map((e) => [e.workspace_id, e.data]),
        [
          [alice.personalWorkspace, { sheet_id: id, format: 'markdown', url: viaMcp.url, ...mine }],
          [alice.personalWorkspace, { sheet_id: id, format: 'markdown', url: viaRest.url, ...mine }],
          [alice.personalWorkspace, { sheet_id: id, format: 'json', url: json.url, ...mine }],
        ],
      );
    });

    it("export_sheet refuses a bad format, another account's sheet and an unknown id as REST does, and writes nothing", async () => {
      const { id } = ok(await call('create_sheet', { title: 'x' }));
      const bobs = (await s.req('POST', '/v1/sheets', { key: bob.key, body: { title: 'bob only' } })).body.id;
      const unknown = 'sht_01jzzzzzzzzzzzzzzzzzzzzzzz';
      const before = (await s.events()).length;
      const restExport = (sheetId: string, body: unknown) => s.req('POST', `/v1/sheets/${sheetId}/export`, { key: alice.key, body });
      const pdf = await call('export_sheet', { id, format: 'pdf' });
      assert.match(toolError(pdf, 400, 'invalid_request').error, /format must be one of markdown, html, txt, json/);
      sameErrorAsRest(pdf, await restExport(id, { format: 'pdf' }));
      sameErrorAsRest(await call('export_sheet', { id }), await restExport(id, {}));
      const foreign = await call('export_sheet', { id: bobs, format: 'txt' });
      toolError(foreign, 403, 'forbidden');
      sameErrorAsRest(foreign, await restExport(bobs, { format: 'txt' }));
      const missing = await call('export_sheet', { id: unknown, format: 'html' });
      toolError(missing, 404, 'not_found');
      sameErrorAsRest(missing, await restExport(unknown, { format: 'html' }));
      assert.equal((await s.events()).length, before, 'no export.completed for a refused export');
      assert.equal(await s.c.db.selectFrom('exports').select('id').where('sheet_id', '=', bobs).executeTakeFirst(), undefined);
    });

    it(`resources/list pages through every sheet, ${RESOURCE_PAGE_SIZE} at a time, with nextCursor`, async () => {
      const dave = await s.user('free');
      const ids: string[] = [];
      for (let i = 0; i < RESOURCE_PAGE_SIZE + 3; i++)
        ids.push((await s.c.sheets.create({ userId: dave.userId, plan: 'free', keyId: 'key_test', actor: { type: 'api_key', id: 'key_test', name: null } }, { title: `n${i}` })).id);
      const client = await httpClient(s, dave.key);
      const first = await client.listResources();
      assert.equal(first.resources.length, RESOURCE_PAGE_SIZE);
      assert.equal(typeof first.nextCursor, 'string');
      const second = await client.listResources({ cursor: first.nextCursor });
      assert.equal(second.resources.length, 3);
      assert.equal(second.nextCursor, undefined);
      const uris = [...first.resources, ...second.resources].map((r) => r.uri);
      // Newest first, as GET /v1/sheets lists them; every sheet once.
      const restOrder = [...(await s.req('GET', '/v1/sheets?limit=100', { key: dave.key })).body.sheets, ...(await s.req('GET', '/v1/sheets?limit=100&offset=100', { key: dave.key })).body.sheets].map(
        (x: any) => `sheet://${x.id}`,
      );
      assert.deepEqual(uris, restOrder);
      assert.deepEqual([...uris].sort(), ids.map((id) => `sheet://${id}`).sort());
      await assert.rejects(client.listResources({ cursor: 'not-a-cursor' }), /Invalid cursor/);
      await client.close();
    });

    it("serves sheets as sheet://{id} resources, only the caller's", async () => {
      const { id, sheet } = ok(await call('create_sheet', { title: 'res', content: { col1: '<p>r</p>' } }));
      const { resourceTemplates } = await mcp.listResourceTemplates();
      assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'sheet://{id}'));
      const { resources } = await mcp.listResources();
      assert.ok(resources.some((r) => r.uri === `sheet://${id}` && r.name === 'res'));
      const read = await mcp.readResource({ uri: `sheet://${id}` });
      assert.equal(read.contents[0].mimeType, 'application/json');
      assert.deepEqual(JSON.parse((read.contents[0] as { text: string }).text), sheet);
      const bobClient = await httpClient(s, bob.key);
      await assert.rejects(bobClient.readResource({ uri: `sheet://${id}` }), /belongs to another account/);
      assert.equal(
        (await bobClient.listResources()).resources.some((r) => r.uri === `sheet://${id}`),
        false,
      );
      await assert.rejects(mcp.readResource({ uri: 'sheet://sht_nope' }), /sheet sht_nope not found/);
      await bobClient.close();
    });
  });
}
