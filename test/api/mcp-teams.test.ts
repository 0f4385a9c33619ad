import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dialects, expect200, request } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, sameErrorAsRest } from '../mcp-helpers.js';

/** Teams over MCP (issue 33.8): the same workspaces and share links as REST, with the same errors. */
for (const dialect of dialects()) {
  describe(`MCP tools for workspaces and share links [${dialect}]`, () => {
    const {
      s,
      users: { alice, bob },
      beforeClose,
    } = useServer(dialect, { users: { alice: 'pro', bob: 'pro' } });
    let mcp: Client;
    before(async () => {
      mcp = await httpClient(s, alice.key);
    });
    beforeClose(() => mcp.close());
    const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });

    it('list_workspaces answers what GET /v1/workspaces does', async () => {
      await expect200(s, alice.key, 'POST', '/v1/workspaces', { name: 'Crew' });
      const viaMcp = ok(await call('list_workspaces', {}));
      assert.deepEqual(viaMcp.workspaces, (await expect200(s, alice.key, 'GET', '/v1/workspaces')).workspaces);
      assert.deepEqual(
        viaMcp.workspaces.map((w: { personal: boolean }) => w.personal),
        [true, false],
      );
    });

    it('share_sheet makes a working link; list_sheet_shares hides tokens; revoke_sheet_share ends it', async () => {
      const id = (await expect200(s, alice.key, 'POST', '/v1/sheets', { title: 'Over MCP', content: { col1: '<p>hello</p>' } })).sheet.id;
      const { share } = ok(await call('share_sheet', { sheet_id: id, expires_in_hours: 2 }));
      assert.match(share.url, new RegExp(`/s/${share.token}$`));
      const shared = await request(s.url, 'GET', `/v1/shared/${share.token}`);
      assert.equal(shared.status, 200);
      assert.equal(shared.body.sheet.title, 'Over MCP');
      const { shares } = ok(await call('list_sheet_shares', { sheet_id: id }));
      assert.deepEqual(
        shares.map((x: { id: string }) => x.id),
        [share.id],
      );
      assert.ok(!JSON.stringify(shares).includes(share.token));
      assert.deepEqual(ok(await call('revoke_sheet_share', { sheet_id: id, share_id: share.id })), { success: true, id: share.id, revoked: true });
      assert.equal((await request(s.url, 'GET', `/v1/shared/${share.token}`)).status, 404);
    });

    it("another account's sheet: the same 403 as REST", async () => {
      const id = (await expect200(s, bob.key, 'POST', '/v1/sheets', { title: "Bob's" })).sheet.id;
      sameErrorAsRest(await call('share_sheet', { sheet_id: id }), await s.req('POST', `/v1/sheets/${id}/shares`, { key: alice.key, body: {} }));
    });
  });
}
