import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertError, dialects, expect200 } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { httpClient, ok, toolError } from '../mcp-helpers.js';
import { openStream } from '../sse-helpers.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';
import { addMember, assertForbidden, makeTeam } from '../teams-helpers.js';

const personal = (u: TestUser) => `wsp_${u.userId.slice(4)}`;

async function eventually(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), what);
}

/** Events per workspace (issue 33.6): event data names the workspace and the member; a workspace's webhooks and streams get its events only. */
for (const dialect of dialects()) {
  describe(`events and webhooks per workspace [${dialect}]`, () => {
    const { s, users, beforeClose } = useServer(dialect, {
      env: webhookEnv({ EVENT_STREAM_HEARTBEAT_MS: '200' }),
      worker: true,
      users: { alice: 'pro', bob: 'pro', vic: 'free', carol: 'pro' },
    });
    const { alice, bob, vic, carol } = users;
    let team: string;
    let teamRcv: Receiver;
    let aliceRcv: Receiver;
    let teamHook: { id: string; workspace_id: string };
    let mcp: Client;

    const stream = (key: string, query = '') => openStream(`${s.url}/v1/events/stream${query}`, { authorization: `Bearer ${key}` });
    const teamSheet = async (key: string, title: string) => (await expect200(s, key, 'POST', '/v1/sheets', { title, workspace_id: team })).sheet.id as string;

    before(async () => {
      team = await makeTeam(s, alice, 'Launch crew', [
        [bob, 'editor'],
        [vic, 'viewer'],
      ]);
      teamRcv = await startReceiver();
      aliceRcv = await startReceiver();
      teamHook = (await expect200(s, alice.key, 'POST', '/v1/webhooks', { url: teamRcv.url, events: ['*'], name: 'team', workspace_id: team })).webhook;
      await expect200(s, alice.key, 'POST', '/v1/webhooks', { url: aliceRcv.url, events: ['*'], name: 'personal' });
      mcp = await httpClient(s, alice.key);
    });
    beforeClose(() => mcp.close());
    after(async () => {
      await teamRcv.close();
      await aliceRcv.close();
    });

    it("a team workspace's webhook is the workspace's: its view and lists say so, the default list is unchanged", async () => {
      assert.equal(teamHook.workspace_id, team);
      const row = await s.c.db.selectFrom('webhooks').select(['workspace_id', 'user_id']).where('id', '=', teamHook.id).executeTakeFirstOrThrow();
      assert.deepEqual([row.workspace_id, row.user_id], [team, alice.userId], "the workspace's webhook (delivery matches its events), made by alice");
      const listed = await expect200(s, alice.key, 'GET', `/v1/webhooks?workspace_id=${team}`);
      assert.deepEqual(
        listed.webhooks.map((w: any) => [w.name, w.workspace_id]),
        [['team', team]],
      );
      const mine = await expect200(s, alice.key, 'GET', '/v1/webhooks');
      assert.deepEqual(
        mine.webhooks.map((w: any) => [w.name, w.workspace_id]),
        [['personal', personal(alice)]],
      );
      // Members read the list (records.read); the viewer too.
      assert.deepEqual(
        (await expect200(s, vic.key, 'GET', `/v1/webhooks?workspace_id=${team}`)).webhooks.map((w: any) => w.id),
        [teamHook.id],
      );
      assert.deepEqual((await expect200(s, vic.key, 'GET', '/v1/webhooks')).webhooks, [], "vic's own list holds none of the team's");
    });

    it("an editor's write in the team workspace reaches the team webhook with workspace_id and actor_id; the owner's personal webhook gets nothing", async () => {
      teamRcv.received.length = 0;
      aliceRcv.received.length = 0;
      const id = await teamSheet(bob.key, 'Written by bob');
      const [got] = await teamRcv.waitFor(1);
      assert.equal(got.body.event, 'sheet.created');
      assert.deepEqual(got.body.data, { sheet_id: id, name: 'Written by bob', created_at: got.body.data.created_at, workspace_id: team, actor_id: bob.userId });
      // Alice's own write goes to her personal webhook, named as hers, and not to the team's.
      const own = (await expect200(s, alice.key, 'POST', '/v1/sheets', { title: 'Alice alone' })).id;
      const [mineGot] = await aliceRcv.waitFor(1);
      assert.deepEqual([mineGot.body.data.sheet_id, mineGot.body.data.workspace_id, mineGot.body.data.actor_id], [own, personal(alice), alice.userId]);
      await s.worker!.idle();
      assert.deepEqual(
        teamRcv.received.map((r) => r.body.data.sheet_id),
        [id],
        "the personal write did not reach the team's webhook",
      );
      assert.deepEqual(
        aliceRcv.received.map((r) => r.body.data.sheet_id),
        [own],
        "bob's team write did not reach alice's personal webhook",
      );
      // The team's delivery log is readable by its members (the viewer too) and shows it delivered.
      const log = await expect200(s, vic.key, 'GET', `/v1/webhooks/${teamHook.id}/deliveries`);
      assert.deepEqual(
        log.deliveries.map((d: any) => [d.event, d.status]),
        [['sheet.created', 'delivered']],
      );
    });

    it("a team workspace's webhooks are delivered while one of its owners pays, and not once none does", async () => {
      const setPlan = (plan: 'free' | 'pro') => s.c.db.updateTable('users').set({ plan }).where('id', '=', alice.userId).execute();
      teamRcv.received.length = 0;
      await setPlan('free');
      try {
        await teamSheet(bob.key, 'Nobody pays');
        await s.worker!.idle();
        const ev = await s.c.db.selectFrom('outbox').select(['id', 'data', 'dispatched_at']).where('workspace_id', '=', team).orderBy('id', 'desc').executeTakeFirstOrThrow();
        assert.equal(JSON.parse(ev.data).name, 'Nobody pays');
        assert.notEqual(ev.dispatched_at, null, 'the event was fanned out');
        const made = await s.c.db.selectFrom('deliveries').select('id').where('event_id', '=', ev.id).execute();
        assert.deepEqual(made, [], "no delivery for an event written while the workspace's only owner is on free");
      } finally {
        await setPlan('pro');
      }
      const id = await teamSheet(bob.key, 'Owner pays again');
      const [got] = await teamRcv.waitFor(1);
      assert.equal(got.body.data.sheet_id, id);
      assert.deepEqual(
        teamRcv.received.map((r) => r.body.data.name),
        ['Owner pays again'],
      );
    });

    it('creating, changing and deleting a team webhook needs the admin role; an outsider gets 403, an unknown workspace 404', async () => {
      const body = { url: 'https://hooks.example.com/in', events: ['sheet.created'], workspace_id: team };
      assertForbidden(await s.req('POST', '/v1/webhooks', { key: vic.key, body }), 'admin');
      assertForbidden(await s.req('POST', '/v1/webhooks', { key: bob.key, body }), 'admin');
      assertForbidden(await s.req('DELETE', `/v1/webhooks/${teamHook.id}`, { key: bob.key }), 'admin');
      assertForbidden(await s.req('POST', `/v1/webhooks/${teamHook.id}/test`, { key: vic.key }), 'admin');
      assertForbidden(await s.req('POST', `/v1/webhooks/${teamHook.id}/enable`, { key: bob.key }), 'admin');
      assertForbidden(await s.req('GET', `/v1/webhooks?workspace_id=${team}`, { key: carol.key }), 'viewer');
      assertForbidden(await s.req('GET', `/v1/webhooks/${teamHook.id}/deliveries`, { key: carol.key }), 'viewer');
      assertError(await s.req('GET', '/v1/webhooks?workspace_id=wsp_nosuchworkspace', { key: alice.key }), 404, 'not_found', /wsp_nosuchworkspace/);
      assertError(await s.req('GET', '/v1/webhooks?workspace_id=nope', { key: alice.key }), 400, 'invalid_request', /workspace_id/);
      assertError(await s.req('DELETE', '/v1/webhooks/wh_doesnotexist', { key: carol.key }), 404, 'not_found');
      // An admin may: bob made admin creates and deletes one.
      await expect200(s, alice.key, 'PUT', `/v1/workspaces/${team}/members/${bob.userId}`, { role: 'admin' });
      try {
        const made = (await expect200(s, bob.key, 'POST', '/v1/webhooks', body)).webhook;
        assert.equal(made.workspace_id, team);
        await expect200(s, bob.key, 'DELETE', `/v1/webhooks/${made.id}`);
      } finally {
        await expect200(s, alice.key, 'PUT', `/v1/workspaces/${team}/members/${bob.userId}`, { role: 'editor' });
      }
    });

    it("GET /v1/events/stream?workspace_id= carries that workspace's events only; without it, the personal ones as before", { timeout: 15_000 }, async () => {
      const teamStream = await stream(vic.key, `?workspace_id=${team}`);
      const bobPersonal = await stream(bob.key);
      const alicePersonal = await stream(alice.key);
      assert.equal(teamStream.res.status, 200);
      const id = await teamSheet(bob.key, 'Streamed');
      const [ev] = await teamStream.waitFor(1);
      assert.deepEqual([ev.event, ev.data.data.sheet_id, ev.data.data.workspace_id, ev.data.data.actor_id], ['sheet.created', id, team, bob.userId]);
      // A personal write of bob's marks the point by which the team write would have arrived too.
      const mark = (await expect200(s, bob.key, 'POST', '/v1/sheets', { title: 'Bob alone' })).id;
      const [own] = await bobPersonal.waitFor(1);
      assert.deepEqual([own.data.data.sheet_id, own.data.data.workspace_id], [mark, personal(bob)]);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(
        bobPersonal.received.map((e) => e.data.data.sheet_id),
        [mark],
        "the actor's personal stream did not get the team event",
      );
      assert.deepEqual(alicePersonal.received, [], "the owner's personal stream did not get the team event");
      assert.deepEqual(
        teamStream.received.map((e) => e.data.data.sheet_id),
        [id],
        "the team stream did not get bob's personal event",
      );
      await Promise.all([teamStream.close(), bobPersonal.close(), alicePersonal.close()]);
      await eventually(() => s.c.events.openStreams() === 0, 'every stream closed');
    });

    it('a team stream is refused to outsiders and ends once its reader is removed from the workspace', { timeout: 15_000 }, async () => {
      assertForbidden(await s.req('GET', `/v1/events/stream?workspace_id=${team}`, { key: carol.key }), 'viewer');
      assertError(await s.req('GET', '/v1/events/stream?workspace_id=wsp_nosuchworkspace', { key: carol.key }), 404, 'not_found');
      const dora = await s.user('free');
      await addMember(s, alice, team, dora, 'viewer');
      const st = await stream(dora.key, `?workspace_id=${team}`);
      assert.equal(st.res.status, 200);
      await expect200(s, alice.key, 'DELETE', `/v1/workspaces/${team}/members/${dora.userId}`);
      await st.ended; // at the next heartbeat (200 ms here)
      await teamSheet(bob.key, 'After removal');
      assert.deepEqual(st.received, []);
    });

    it('MCP webhook tools take workspace_id, with the same rules as REST', async () => {
      const listed = ok(await mcp.callTool({ name: 'list_webhooks', arguments: { workspace_id: team } }));
      assert.deepEqual(
        listed.webhooks.map((w: any) => [w.id, w.workspace_id]),
        [[teamHook.id, team]],
      );
      const made = ok(await mcp.callTool({ name: 'register_webhook', arguments: { url: 'https://hooks.example.com/mcp', events: ['todos.synced'], workspace_id: team } }));
      assert.equal(made.webhook.workspace_id, team);
      const wrong = toolError(await mcp.callTool({ name: 'delete_webhook', arguments: { id: made.webhook.id, workspace_id: personal(alice) } }), 403, 'forbidden');
      assert.match(wrong.error, new RegExp(`in workspace ${team}`));
      ok(await mcp.callTool({ name: 'delete_webhook', arguments: { id: made.webhook.id, workspace_id: team } }));
      const bobMcp = await httpClient(s, bob.key);
      try {
        const refused = (await bobMcp.callTool({ name: 'register_webhook', arguments: { url: 'https://hooks.example.com/bob', events: ['*'], workspace_id: team } })) as CallToolResult;
        assert.equal(refused.isError, true);
        const body = JSON.parse((refused.content[0] as { text: string }).text);
        assert.deepEqual([body.status, body.code, body.required_role], [403, 'forbidden', 'admin']);
      } finally {
        await bobMcp.close();
      }
    });
  });
}
