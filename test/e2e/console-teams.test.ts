import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { dialects, expect200 } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { browserSkip, openBrowser } from '../browser.js';

// Issue 33.9: teams in the console. A pro owner makes a workspace and invites through the members page;
// a free user accepts through the console's join link; roles show and change; a sheet's share link made in
// the dialog opens without a session and 404s once revoked; the Stats chart type does not scale with the window.
const skip = browserSkip;
if (!skip) execFileSync(process.execPath, ['scripts/console-build.mjs'], { stdio: 'inherit' });

async function signIn(page: Page, url: string, key: string) {
  await page.goto(`${url}/console/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Sheets', level: 1 }).waitFor();
}

for (const dialect of dialects()) {
  describe(`console: workspaces, invitations and share links [${dialect}]`, { skip }, () => {
    const {
      s,
      users: { owner, guest },
      beforeClose,
    } = useServer(dialect, { users: { owner: 'pro', guest: 'free' } });
    let ownerCtx: BrowserContext;
    let guestCtx: BrowserContext;
    let anonCtx: BrowserContext;
    let op: Page;
    let gp: Page;
    before(async () => {
      [ownerCtx, guestCtx, anonCtx] = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
      op = ownerCtx.pages()[0] ?? (await ownerCtx.newPage());
      gp = guestCtx.pages()[0] ?? (await guestCtx.newPage());
      await signIn(op, s.url, owner.key);
      await signIn(gp, s.url, guest.key);
    });
    beforeClose(() => Promise.all([ownerCtx, guestCtx, anonCtx].map((c) => c?.close())));

    const alerts = (page: Page) => page.getByRole('alert').allInnerTexts();

    it('a free account sees the plan_required message when making a team workspace; its personal one opens', async () => {
      await gp.goto(`${s.url}/console/#/workspaces`);
      await gp.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
      await gp.getByLabel('Workspace name').fill('Not allowed');
      await gp.getByRole('button', { name: 'Create workspace' }).click();
      await gp.getByRole('alert').filter({ hasText: 'Pro plan' }).waitFor();
      assert.match((await alerts(gp)).join(), /free plan/);
      await gp.getByRole('link', { name: 'Personal' }).click();
      await gp.getByRole('heading', { name: /Personal/, level: 1 }).waitFor();
      assert.equal(await gp.getByTestId('my-role').innerText(), 'owner');
      assert.equal(await gp.getByRole('button', { name: 'Create invitation' }).count(), 0, 'no invitations in a personal workspace');
    });

    it('the owner invites through the members page, the guest accepts through the console, roles show and change', async () => {
      await op.goto(`${s.url}/console/#/workspaces`);
      await op.getByLabel('Workspace name').fill('Team Alpha');
      await op.getByRole('button', { name: 'Create workspace' }).click();
      await op.getByRole('heading', { name: /Team Alpha/, level: 1 }).waitFor();
      const workspaceId = decodeURIComponent(new URL(op.url()).hash.split('/')[2]);
      assert.match(workspaceId, /^wsp_/);
      assert.equal(await op.getByTestId('my-role').innerText(), 'owner');

      await op.locator('select[name=invite_role]').selectOption('editor');
      await op.locator('select[name=invite_expiry]').selectOption('24');
      await op.getByRole('button', { name: 'Create invitation' }).click();
      const link = await op.getByTestId('invitation-link').innerText();
      assert.match(link, new RegExp(`^${s.url}/console/#/join/inv_[A-Za-z0-9_-]{43}$`));

      // A bad token is refused in the page, before any request.
      await gp.goto(`${s.url}/console/#/join/not-a-token`);
      await gp.getByRole('button', { name: 'Accept invitation' }).click();
      await gp.getByRole('alert').filter({ hasText: 'not an invitation token' }).waitFor();

      await gp.goto(link);
      assert.equal(await gp.getByLabel('Invitation link or token').inputValue(), link.split('/join/')[1], 'the link fills the token in; nothing is accepted yet');
      await gp.getByRole('button', { name: 'Accept invitation' }).click();
      await gp.getByText('You joined Team Alpha as editor').waitFor();
      const row = gp.locator(`tr[data-workspace-id="${workspaceId}"]`);
      assert.equal(await row.locator('.workspace-role').innerText(), 'editor');
      assert.equal(new URL(gp.url()).hash, '#/workspaces');

      // The spent token says nothing more: the server's 404 message shows.
      await gp.getByLabel('Invitation link or token').fill(link);
      await gp.getByRole('button', { name: 'Accept invitation' }).click();
      await gp.getByRole('alert').filter({ hasText: 'already used' }).waitFor();

      const members = (await expect200(s, owner.key, 'GET', `/v1/workspaces/${workspaceId}/members`)).members as { user_id: string; name: string; role: string }[];
      const guestName = members.find((m) => m.user_id === guest.userId)!.name;
      await op.reload();
      const roleSelect = op.getByLabel(`Role of ${guestName}`);
      await roleSelect.waitFor();
      assert.equal(await roleSelect.inputValue(), 'editor');
      await roleSelect.selectOption('viewer');
      await expectRole(workspaceId, guest.userId, 'viewer');

      // The guest, now a viewer, sees its role and no managing controls.
      await gp.goto(`${s.url}/console/#/workspaces/${workspaceId}`);
      await gp.getByRole('heading', { name: /Team Alpha/, level: 1 }).waitFor();
      assert.equal(await gp.getByTestId('my-role').innerText(), 'viewer', 'the fresh role, not the list the guest came from');
      assert.equal(await gp.getByRole('button', { name: 'Create invitation' }).count(), 0);
      assert.equal(await gp.locator('select').count(), 0, 'roles are text for a viewer');

      // The only owner cannot step down: the server's 409 shows and the role stays.
      const ownerName = members.find((m) => m.user_id === owner.userId)!.name;
      await op.getByLabel(`Role of ${ownerName}`).selectOption('admin');
      await op.getByRole('alert').filter({ hasText: 'at least one owner' }).waitFor();
      await expectRole(workspaceId, owner.userId, 'owner');
      await waitUntil(async () => (await op.getByLabel(`Role of ${ownerName}`).inputValue()) === 'owner', 'the refused choice is undone in the select');

      // Removing the guest ends their access.
      await op.getByRole('button', { name: `Remove ${guestName}` }).click();
      await op.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      await op.locator(`tr[data-member-id="${guest.userId}"]`).waitFor({ state: 'detached' });
      const res = await s.req('GET', `/v1/workspaces/${workspaceId}`, { key: guest.key });
      assert.equal(res.status, 403);

      // Renaming, then deleting by typing the (new) name.
      await op.locator('input[name=rename]').fill('Team Beta');
      await op.getByRole('button', { name: 'Rename' }).click();
      await op.getByRole('heading', { name: /Team Beta/, level: 1 }).waitFor();
      const del = op.getByRole('button', { name: 'Delete workspace' });
      await op.locator('input[name=confirm_delete]').fill('Team Alpha');
      assert.equal(await del.isDisabled(), true, 'the old name does not enable Delete');
      await op.locator('input[name=confirm_delete]').fill('Team Beta');
      await del.click();
      await op.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
      assert.equal(await op.locator(`tr[data-workspace-id="${workspaceId}"]`).count(), 0);
      assert.equal((await s.req('GET', `/v1/workspaces/${workspaceId}`, { key: owner.key })).status, 404);
    });

    async function waitUntil(check: () => Promise<boolean>, what: string) {
      for (let i = 0; i < 50; i++) {
        if (await check()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail(what);
    }

    async function expectRole(workspaceId: string, userId: string, role: string) {
      await waitUntil(async () => {
        const body = await expect200(s, owner.key, 'GET', `/v1/workspaces/${workspaceId}/members`);
        return body.members.find((m: { user_id: string }) => m.user_id === userId)?.role === role;
      }, `${userId} never became ${role}`);
    }

    it('the members page lists pending invitations with their maker; Revoke ends one (its token then 404s)', async () => {
      const id = (await expect200(s, owner.key, 'POST', '/v1/workspaces', { name: 'Team Pending' })).workspace.id as string;
      const kept = (await expect200(s, owner.key, 'POST', `/v1/workspaces/${id}/invitations`, { role: 'viewer' })).invitation;
      await op.goto(`${s.url}/console/#/workspaces/${id}`);
      await op.getByRole('heading', { name: /Team Pending/, level: 1 }).waitFor();
      await op.locator(`tr[data-invitation-id="${kept.id}"]`).waitFor();
      // One made in the page joins the list at once.
      await op.locator('select[name=invite_role]').selectOption('admin');
      await op.getByRole('button', { name: 'Create invitation' }).click();
      const token = (await op.getByTestId('invitation-link').innerText()).split('/join/')[1];
      const made = op.locator('tr[data-invitation-id]').filter({ hasText: 'admin' });
      await made.waitFor();
      const ownerName = (await expect200(s, owner.key, 'GET', `/v1/workspaces/${id}/members`)).members[0].name as string;
      assert.equal(await made.locator('td[data-label="Invited by"]').innerText(), ownerName);
      assert.ok(!(await op.locator('section', { hasText: 'Pending invitations' }).innerText()).includes(token), 'no token in the list');

      await made.getByRole('button', { name: 'Revoke' }).click();
      await made.waitFor({ state: 'detached' });
      const late = await s.req('POST', `/v1/invitations/${token}/accept`, { key: guest.key });
      assert.equal(late.status, 404, JSON.stringify(late.body));
      assert.deepEqual(
        (await expect200(s, owner.key, 'GET', `/v1/workspaces/${id}/invitations`)).invitations.map((i: { id: string }) => i.id),
        [kept.id],
      );
    });

    it('a share link made in the dialog opens without a session; after revoking it is a 404', async () => {
      const body = await expect200(s, owner.key, 'POST', '/v1/sheets', { title: 'Shared plan', content: { col1: '<p>Quarterly numbers</p>' } });
      await op.goto(`${s.url}/console/#/sheets/${body.sheet.id}`);
      await op.getByRole('button', { name: 'Share' }).click();
      const dialog = op.getByRole('dialog', { name: 'Share "Shared plan"' });
      await dialog.getByText('No links yet.').waitFor();
      await dialog.getByLabel('Expires').selectOption('168');
      await dialog.getByRole('button', { name: 'Make a link' }).click();
      const url = await dialog.getByTestId('share-url').innerText();
      assert.match(url, new RegExp(`^${s.url}/s/[A-Za-z0-9_-]{43}$`));
      await dialog.locator('tr[data-share-id]').waitFor();
      const expires = await dialog.locator('td[data-label=Expires]').innerText();
      assert.notEqual(expires, 'never');

      const reader = await anonCtx.newPage();
      const opened = await reader.goto(url);
      assert.equal(opened?.status(), 200);
      assert.match(await reader.locator('body').innerText(), /Shared plan[\s\S]*Quarterly numbers/);

      await dialog.getByRole('button', { name: /^Revoke/ }).click();
      await dialog.getByText('No links yet.').waitFor();
      const again = await reader.goto(url);
      assert.equal(again?.status(), 404);
      await reader.close();
      await dialog.getByRole('button', { name: 'Close' }).click();
      assert.equal(await op.getByRole('dialog').count(), 0);
    });

    it('Stats chart labels keep their size at 800 and 1600 px wide', async () => {
      await expect200(s, owner.key, 'POST', '/v1/stats?action=worktime', { hours: 2, date: new Date().toISOString().slice(0, 10) });
      const sizes: { font: string[]; heights: number[] }[] = [];
      for (const width of [800, 1600]) {
        await op.setViewportSize({ width, height: 900 });
        await op.goto(`${s.url}/console/#/stats`);
        const chart = op.getByRole('img', { name: 'Work hours by day' });
        await chart.waitFor();
        sizes.push(
          await chart.evaluate((svg) => {
            const texts = [...svg.querySelectorAll('text')];
            return { font: texts.map((t) => getComputedStyle(t).fontSize), heights: texts.map((t) => Math.round(t.getBoundingClientRect().height)) };
          }),
        );
      }
      assert.ok(sizes[0].font.length > 0);
      assert.deepEqual(new Set(sizes[0].font), new Set(['12px']));
      assert.deepEqual(sizes[1].font, sizes[0].font, 'computed font-size is the same at both widths');
      assert.deepEqual(sizes[1].heights, sizes[0].heights, 'and so is the drawn height of every label');
    });
  });
}
