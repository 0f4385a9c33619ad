import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, expect200, request } from '../helpers.js';
import { useServer, type TestUser } from '../server-fixture.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';
import { addMember, makeTeam } from '../teams-helpers.js';

/**
 * What a member made goes when their standing does (security round 3, findings 8 and 9): share links of
 * the workspace's sheets end for good when the maker leaves, is removed or drops below editor (rejoining
 * brings none back); the maker's webhooks of the workspace are disabled when they leave, are removed or
 * drop below admin, and no further delivery goes out until an admin or owner enables them again.
 */
for (const dialect of dialects()) {
  describe(`what a departing member made [${dialect}]`, () => {
    let rcv: Receiver;
    before(async () => {
      rcv = await startReceiver();
    });
    after(() => rcv.close());
    const {
      s,
      users: { owner },
    } = useServer(dialect, { worker: { pollMs: 50 }, lateOptions: () => ({ env: webhookEnv() }), users: { owner: 'pro' } });

    const shared = async (token: string) => (await request(s.url, 'GET', `/v1/shared/${token}`)).status;
    const page = async (token: string) => (await request(s.url, 'GET', `/s/${token}`)).status;
    async function member(team: string, role: 'admin' | 'editor' | 'viewer'): Promise<TestUser> {
      const u = await s.user('pro');
      await addMember(s, owner, team, u, role);
      return u;
    }
    const sheetIn = async (by: TestUser, team: string, title = 'Team notes') =>
      (await expect200(s, by.key, 'POST', '/v1/sheets', { title, content: { col1: '<p>team only</p>' }, workspace_id: team })).sheet.id as string;
    const share = async (by: TestUser, sheet: string) => (await expect200(s, by.key, 'POST', `/v1/sheets/${sheet}/shares`, {})).share as { id: string; token: string };

    it("a removed member's share links end for good: rejoining, even as editor, brings none back", async () => {
      const team = await makeTeam(s, owner, 'Links');
      const editor = await member(team, 'editor');
      const sheet = await sheetIn(owner, team);
      const link = await share(editor, sheet);
      const ownersLink = await share(owner, sheet);
      const personal = (await expect200(s, editor.key, 'POST', '/v1/sheets', { title: 'mine' })).sheet.id;
      const personalLink = await share(editor, personal);
      assert.equal(await shared(link.token), 200);
      await expect200(s, owner.key, 'DELETE', `/v1/workspaces/${team}/members/${editor.userId}`);
      assert.equal(await shared(link.token), 404);
      assert.equal(await page(link.token), 404);
      await addMember(s, owner, team, editor, 'editor');
      assert.equal(await shared(link.token), 404, 'rejoined: the link stays dead');
      assert.deepEqual(
        (await expect200(s, editor.key, 'GET', `/v1/sheets/${sheet}/shares`)).shares.map((x: any) => x.id),
        [ownersLink.id],
      );
      assert.equal(await shared(ownersLink.token), 200, "the owner's link of the same sheet is untouched");
      assert.equal(await shared(personalLink.token), 200, "the member's links to their own sheets are untouched");
    });

    it('a member demoted to viewer, or leaving, loses their links for good', async () => {
      const team = await makeTeam(s, owner, 'Demoted links');
      const editor = await member(team, 'editor');
      const leaver = await member(team, 'editor');
      const admin = await member(team, 'admin');
      const sheet = await sheetIn(editor, team);
      const byEditor = await share(editor, sheet);
      const byLeaver = await share(leaver, sheet);
      const byAdmin = await share(admin, sheet);
      assert.equal(await shared(byEditor.token), 200);
      await expect200(s, owner.key, 'PUT', `/v1/workspaces/${team}/members/${editor.userId}`, { role: 'viewer' });
      assert.equal(await shared(byEditor.token), 404, 'a viewer may not share: their link ends');
      await expect200(s, owner.key, 'PUT', `/v1/workspaces/${team}/members/${editor.userId}`, { role: 'editor' });
      assert.equal(await shared(byEditor.token), 404, 'promoted again: the link stays dead');
      await expect200(s, leaver.key, 'DELETE', `/v1/workspaces/${team}/members/${leaver.userId}`);
      assert.equal(await shared(byLeaver.token), 404);
      // Admin to editor keeps the right to share: the link stays.
      await expect200(s, owner.key, 'PUT', `/v1/workspaces/${team}/members/${admin.userId}`, { role: 'editor' });
      assert.equal(await shared(byAdmin.token), 200);
    });

    /** Deliveries of a webhook the receiver got (by its path). */
    const got = (path: string) => rcv.received.filter((r) => r.path === `/hook${path}`);
    async function waitFor(path: string, n: number) {
      for (let i = 0; i < 400 && got(path).length < n; i++) await new Promise((r) => setTimeout(r, 25));
      assert.equal(got(path).length, n, `${path}: ${got(path).length} deliveries, want ${n}`);
    }
    const hook = async (by: TestUser, team: string, path: string) => (await expect200(s, by.key, 'POST', '/v1/webhooks', { url: `${rcv.url}${path}`, events: ['sheet.created'], workspace_id: team })).webhook;
    const listed = async (team: string, id: string) => (await expect200(s, owner.key, 'GET', `/v1/webhooks?workspace_id=${team}`)).webhooks.find((w: any) => w.id === id);

    it("a removed admin's team webhook is disabled, shows its maker, and gets no further delivery until re-enabled", async () => {
      const team = await makeTeam(s, owner, 'Hooks');
      const admin = await member(team, 'admin');
      const theirs = await hook(admin, team, '/removed-admin');
      const control = await hook(owner, team, '/owner-control');
      assert.equal(theirs.created_by, admin.userId);
      assert.equal((await listed(team, theirs.id)).created_by, admin.userId, 'the listing names the maker');
      assert.equal((await listed(team, control.id)).created_by, owner.userId);
      await sheetIn(owner, team, 'first');
      await waitFor('/removed-admin', 1);
      await waitFor('/owner-control', 1);

      await expect200(s, owner.key, 'DELETE', `/v1/workspaces/${team}/members/${admin.userId}`);
      const off = await listed(team, theirs.id);
      assert.equal(off.status, 'disabled');
      assert.match(off.disabled_reason, new RegExp(`maker ${admin.userId} was removed`));
      assert.equal(off.created_by, admin.userId);
      assert.equal((await listed(team, control.id)).status, 'enabled');
      await sheetIn(owner, team, 'second');
      await waitFor('/owner-control', 2);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(got('/removed-admin').length, 1, 'no delivery after the removal');
      const deliveries = (await expect200(s, owner.key, 'GET', `/v1/webhooks/${theirs.id}/deliveries`)).deliveries;
      assert.equal(deliveries.length, 1, 'nothing queued for it either');

      // The owner may turn it back on: events flow again.
      assert.equal((await expect200(s, owner.key, 'POST', `/v1/webhooks/${theirs.id}/enable`)).webhook.status, 'enabled');
      await sheetIn(owner, team, 'third');
      await waitFor('/removed-admin', 2);
    });

    it('an admin demoted to editor, or leaving, has their webhooks of that workspace disabled; an owner demoted to admin keeps them', async () => {
      const team = await makeTeam(s, owner, 'Demoted hooks');
      const admin = await member(team, 'admin');
      const leaver = await member(team, 'admin');
      const coOwner = await member(team, 'admin');
      await expect200(s, owner.key, 'PUT', `/v1/workspaces/${team}/members/${coOwner.userId}`, { role: 'owner' });
      const demotedHook = await hook(admin, team, '/demoted');
      const leaverHook = await hook(leaver, team, '/leaver');
      const coOwnerHook = await hook(coOwner, team, '/co-owner');
      const personalHook = (await expect200(s, admin.key, 'POST', '/v1/webhooks', { url: `${rcv.url}/personal`, events: ['sheet.created'] })).webhook;
      assert.equal(personalHook.created_by, admin.userId, 'personal webhooks name their maker too');

      await expect200(s, owner.key, 'PUT', `/v1/workspaces/${team}/members/${admin.userId}`, { role: 'editor' });
      await expect200(s, leaver.key, 'DELETE', `/v1/workspaces/${team}/members/${leaver.userId}`);
      await expect200(s, owner.key, 'PUT', `/v1/workspaces/${team}/members/${coOwner.userId}`, { role: 'admin' });
      const demoted = await listed(team, demotedHook.id);
      assert.equal(demoted.status, 'disabled');
      assert.match(demoted.disabled_reason, /now has the editor role/);
      assert.equal((await listed(team, leaverHook.id)).status, 'disabled');
      assert.match((await listed(team, leaverHook.id)).disabled_reason, /left/);
      assert.equal((await listed(team, coOwnerHook.id)).status, 'enabled', 'an admin still manages webhooks');
      const mine = (await expect200(s, admin.key, 'GET', '/v1/webhooks')).webhooks.find((w: any) => w.id === personalHook.id);
      assert.equal(mine.status, 'enabled', 'their personal webhook is untouched');

      await sheetIn(owner, team, 'after the demotion');
      await expect200(s, admin.key, 'POST', '/v1/sheets', { title: 'personal' });
      await waitFor('/co-owner', 1);
      await waitFor('/personal', 1);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(got('/demoted').length + got('/leaver').length, 0, 'no delivery to the disabled webhooks');
    });
  });
}
